// oidc-provider's storage in PostgreSQL (not its in-memory adapter): every model is a row of
// oauth_models keyed by (model, id), with the lookups the provider needs by uid, user code and
// grant. Expired rows are invisible at once and swept by `sweepExpired`.
//
// No usable credential is stored: models whose id is a bearer value (access, refresh and
// registration tokens, codes, the provider's session cookie) are stored under the id's SHA-256
// and without the `jti` copy in the payload; the provider always looks them up by the value it
// was given, so the hash suffices. Two things must be read back as they were, so they are sealed
// (AES-256-GCM under APP_SECRET_KEY) instead: a confidential client's secret (the provider
// compares it) and interactions (their payload names the session cookie). Dynamically registered
// clients expire 30 days after their last grant or token refresh.
import { createHash } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../../secrets/secret-box.js';
import { runStatement, sqlStatement, type SqlRunner } from '../../db/sql-runner.js';

const HASHED_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'RegistrationAccessToken',
  'Session',
  'Interaction',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  'ReplayDetection',
]);
export const UNUSED_CLIENT_TTL_SECONDS = 30 * 86_400;

export const storedIdOf = (model: string, id: string) =>
  HASHED_MODELS.has(model) ? createHash('sha256').update(id).digest('base64url') : id;

interface StoredPayload extends AdapterPayload {
  sealed?: string;
  client_secret_sealed?: string;
}

/** How payloads are stored: an interaction sealed whole, a client's secret sealed, a hashed model's jti left out. */
function storedPayloads(box: SecretBox) {
  const context = (model: string, storedId: string) => `oauth_model:${model}:${storedId}`;
  return {
    toStored(model: string, storedId: string, payload: AdapterPayload): StoredPayload {
      if (model === 'Interaction') return { sealed: box.seal(JSON.stringify(payload), context(model, storedId)) };
      const stored: StoredPayload = { ...payload };
      if (HASHED_MODELS.has(model)) delete stored.jti;
      if (model === 'Client' && typeof payload.client_secret === 'string') {
        delete stored.client_secret;
        stored.client_secret_sealed = box.seal(payload.client_secret, context(model, storedId));
      }
      return stored;
    },
    /**
     * The payload as the provider wrote it; `id` is the looked-up value, null when found by uid
     * (then no jti comes back).
     */
    fromStored(model: string, storedId: string, id: string | null, stored: StoredPayload): AdapterPayload {
      if (stored.sealed !== undefined)
        return JSON.parse(box.open(stored.sealed, context(model, storedId))) as AdapterPayload;
      const { client_secret_sealed: sealedSecret, ...payload } = stored;
      if (sealedSecret !== undefined) payload.client_secret = box.open(sealedSecret, context(model, storedId));
      return HASHED_MODELS.has(model) && id !== null ? { ...payload, jti: id } : payload;
    },
  };
}

interface StoredModel {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  lifetimeSeconds: number | null;
}

const UPSERT = sqlStatement<never, StoredModel>(
  'oauth.model-upsert',
  (param) => `INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at)
  VALUES (${param('model')}, ${param('id')}, ${param('payload')}, ${param('grantId')}, ${param('userCode')},
    ${param('uid')}, CASE WHEN ${param('lifetimeSeconds')}::int IS NULL THEN NULL
      ELSE now() + make_interval(secs => ${param('lifetimeSeconds')}::int) END)
  ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
    user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
);
const KEEP_CLIENT = sqlStatement<never, { clientId: string; lifetimeSeconds: number }>(
  'oauth.keep-client',
  (param) => `UPDATE oauth_models SET expires_at = now() + make_interval(secs => ${param('lifetimeSeconds')}::int)
  WHERE model = 'Client' AND id = ${param('clientId')}`,
);

type LookupColumn = 'id' | 'uid' | 'user_code';
const findWhere = (column: LookupColumn) =>
  sqlStatement<{ id: string; payload: StoredPayload; consumed_at: Date | null }, { model: string; value: string }>(
    `oauth.model-by-${column}`,
    (param) => `SELECT id, payload, consumed_at FROM oauth_models
  WHERE model = ${param('model')} AND ${column} = ${param('value')} AND (expires_at IS NULL OR expires_at > now())`,
  );
const FIND_WHERE = { id: findWhere('id'), uid: findWhere('uid'), user_code: findWhere('user_code') };

const CONSUME = sqlStatement<never, { model: string; id: string }>(
  'oauth.model-consume',
  (param) => `UPDATE oauth_models SET consumed_at = now() WHERE model = ${param('model')} AND id = ${param('id')}`,
);
const DESTROY = sqlStatement<never, { model: string; id: string }>(
  'oauth.model-destroy',
  (param) => `DELETE FROM oauth_models WHERE model = ${param('model')} AND id = ${param('id')}`,
);
const REVOKE_GRANT = sqlStatement<never, { model: string; grantId: string }>(
  'oauth.model-revoke-grant',
  (param) => `DELETE FROM oauth_models WHERE model = ${param('model')} AND grant_id = ${param('grantId')}`,
);
const SWEEP_EXPIRED = sqlStatement<never>(
  'oauth.sweep-expired',
  () => 'DELETE FROM oauth_models WHERE expires_at < now()',
);
const END_SESSIONS = sqlStatement<never, { userId: string }>(
  'oauth.end-sessions',
  (param) => `DELETE FROM oauth_models
    WHERE model = 'Session' AND split_part(payload->>'accountId', '.', 1) = ${param('userId')}`,
);

export function postgresAdapter(pool: SqlRunner, box: SecretBox) {
  const { toStored, fromStored } = storedPayloads(box);

  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const lifetime = this.model === 'Client' ? UNUSED_CLIENT_TTL_SECONDS : (expiresIn ?? null);
      const storedId = storedIdOf(this.model, id);
      await runStatement(pool, UPSERT, {
        model: this.model,
        id: storedId,
        payload: JSON.stringify(toStored(this.model, storedId, payload)),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: this.model === 'Interaction' ? null : (payload.uid ?? null),
        lifetimeSeconds: lifetime,
      });
      // A client in use stays registered: its clock restarts with every grant and refresh.
      if ((this.model === 'Grant' || this.model === 'RefreshToken') && payload.clientId) {
        await runStatement(pool, KEEP_CLIENT, {
          clientId: payload.clientId,
          lifetimeSeconds: UNUSED_CLIENT_TTL_SECONDS,
        });
      }
    }

    private async findWhere(
      column: LookupColumn,
      value: string,
      id: string | null,
    ): Promise<AdapterPayload | undefined> {
      const result = await runStatement(pool, FIND_WHERE[column], { model: this.model, value });
      const row = result.rows[0];
      if (!row) return undefined;
      const payload = fromStored(this.model, row.id, id, row.payload);
      return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.findWhere('id', storedIdOf(this.model, id), id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid, null);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode, null);
    }

    async consume(id: string) {
      await runStatement(pool, CONSUME, { model: this.model, id: storedIdOf(this.model, id) });
    }

    async destroy(id: string) {
      await runStatement(pool, DESTROY, { model: this.model, id: storedIdOf(this.model, id) });
    }

    async revokeByGrantId(grantId: string) {
      await runStatement(pool, REVOKE_GRANT, { model: this.model, grantId });
    }
  };
}

export async function sweepExpired(pool: SqlRunner): Promise<number> {
  return (await runStatement(pool, SWEEP_EXPIRED)).rowCount;
}

/** Signing out of the web app signs the person out of the authorization server too: the next /authorize asks again. */
export async function endAuthorizationSessions(pool: SqlRunner, userId: string): Promise<void> {
  await runStatement(pool, END_SESSIONS, { userId });
}
