// oidc-provider's storage in PostgreSQL (not its in-memory adapter): every model is a row of
// oauth_models keyed by (model, id), with the lookups the provider needs by uid, user code and
// grant. Expired rows are invisible at once and swept by `sweepExpired`.
import type pg from 'pg';
import type { Adapter, AdapterPayload } from 'oidc-provider';

export function postgresAdapter(pool: pg.Pool) {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      await pool.query(
        `INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null],
      );
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const result = await pool.query<{ payload: AdapterPayload; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM oauth_models WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
        [this.model, value],
      );
      const row = result.rows[0];
      if (!row) return undefined;
      return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string) {
      await pool.query('UPDATE oauth_models SET consumed_at = now() WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async destroy(id: string) {
      await pool.query('DELETE FROM oauth_models WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string) {
      await pool.query('DELETE FROM oauth_models WHERE grant_id = $1', [grantId]);
    }
  };
}

export async function sweepExpired(pool: pg.Pool): Promise<number> {
  return (await pool.query('DELETE FROM oauth_models WHERE expires_at < now()')).rowCount ?? 0;
}
