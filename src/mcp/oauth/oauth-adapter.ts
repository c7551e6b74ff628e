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
import type pg from 'pg';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../../secrets/secret-box.js';

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

const UPSERT = `INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
  ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
    user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`;
const KEEP_CLIENT = `UPDATE oauth_models SET expires_at = now() + make_interval(secs => $2::int)
  WHERE model = 'Client' AND id = $1`;
const findWhereSql = (column: 'id' | 'uid' | 'user_code') => `SELECT id, payload, consumed_at FROM oauth_models
  WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`;

export function postgresAdapter(pool: pg.Pool, box: SecretBox) {
  const { toStored, fromStored } = storedPayloads(box);

  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const lifetime = this.model === 'Client' ? UNUSED_CLIENT_TTL_SECONDS : (expiresIn ?? null);
      await pool.query(UPSERT, [
        this.model,
        storedIdOf(this.model, id),
        JSON.stringify(toStored(this.model, storedIdOf(this.model, id), payload)),
        payload.grantId ?? null,
        payload.userCode ?? null,
        this.model === 'Interaction' ? null : (payload.uid ?? null),
        lifetime,
      ]);
      // A client in use stays registered: its clock restarts with every grant and refresh.
      if ((this.model === 'Grant' || this.model === 'RefreshToken') && payload.clientId) {
        await pool.query(KEEP_CLIENT, [payload.clientId, UNUSED_CLIENT_TTL_SECONDS]);
      }
    }

    private async findWhere(
      column: 'id' | 'uid' | 'user_code',
      value: string,
      id: string | null,
    ): Promise<AdapterPayload | undefined> {
      const result = await pool.query<{ id: string; payload: StoredPayload; consumed_at: Date | null }>(
        findWhereSql(column),
        [this.model, value],
      );
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
      await pool.query('UPDATE oauth_models SET consumed_at = now() WHERE model = $1 AND id = $2', [
        this.model,
        storedIdOf(this.model, id),
      ]);
    }

    async destroy(id: string) {
      await pool.query('DELETE FROM oauth_models WHERE model = $1 AND id = $2', [
        this.model,
        storedIdOf(this.model, id),
      ]);
    }

    async revokeByGrantId(grantId: string) {
      await pool.query('DELETE FROM oauth_models WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }
  };
}

export async function sweepExpired(pool: pg.Pool): Promise<number> {
  return (await pool.query('DELETE FROM oauth_models WHERE expires_at < now()')).rowCount ?? 0;
}

/** Signing out of the web app signs the person out of the authorization server too: the next /authorize asks again. */
export async function endAuthorizationSessions(pool: Pick<pg.Pool, 'query'>, userId: string): Promise<void> {
  await pool.query(
    "DELETE FROM oauth_models WHERE model = 'Session' AND split_part(payload->>'accountId', '.', 1) = $1",
    [userId],
  );
}
