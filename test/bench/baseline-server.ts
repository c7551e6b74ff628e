// The minimal baseline of bench:api, bench:report and bench:ai: plain node:http + pg, the same
// key check (SHA-256 of the secret, constant-time compare, cached like the service), the same SQL
// and the same JSON; report data and AI metrics by the hand-written SQL of hand-sql.ts. Tuned as a
// careful hand-written server is: every statement prepared once per connection (named), the
// service's session settings (no JIT, no parallel workers), BASELINE_POOL_SIZE connections (set it
// to the load's connection count for a connection per load connection).
import { createServer } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { handAiMetrics, handReportData } from './hand-sql.js';
import {
  resolveComparePreset,
  resolveDatePreset,
  type ComparePreset,
  type DatePreset,
} from '../../src/reports/date-presets.js';
import { today } from '../../src/dates/date-range.js';
import { API_SESSION_SETTINGS } from '../../src/db/session-settings.js';

// Dates as the service writes them ('YYYY-MM-DD'), as any server answering JSON would.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// The service's session settings too, so that plans are compared like for like.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.BASELINE_POOL_SIZE ?? 10),
  options: API_SESSION_SETTINGS,
});
const statementNames = new Map<string, string>();
const unnamedQuery = pool.query.bind(pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
pool.query = ((text: string, values?: unknown[]) => {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `baseline_${statementNames.size}`));
  return unnamedQuery({ name, text, values });
}) as typeof pool.query;
const keys = new Map<string, { workspaceId: string; hash: Buffer }>();

async function authenticate(header: string | undefined): Promise<string | null> {
  const match = /^Bearer sgb_live_([0-9A-Za-z]{16})\.([A-Za-z0-9_-]{43})$/.exec(header ?? '');
  if (!match) return null;
  let key = keys.get(match[1]!);
  if (!key) {
    const { rows } = await pool.query(
      'SELECT workspace_id, secret_hash FROM api_keys WHERE id = $1 AND revoked_at IS NULL',
      [match[1]],
    );
    if (!rows[0]) return null;
    key = { workspaceId: rows[0].workspace_id, hash: rows[0].secret_hash };
    keys.set(match[1]!, key);
  }
  const candidate = createHash('sha256').update(match[2]!).digest();
  return timingSafeEqual(candidate, key.hash) ? key.workspaceId : null;
}

const send = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const server = createServer(async (req, res) => {
  try {
    const workspaceId = await authenticate(req.headers.authorization);
    if (!workspaceId) return send(res, 401, { error: { code: 'unauthenticated', message: 'no' } });
    const [url = '/', query] = (req.url ?? '/').split('?');
    const search = new URLSearchParams(query);
    if (url === '/api/v1/clients') {
      const { rows } = await pool.query(
        `SELECT c.id, c.name, c.currency, c.created_at AS "createdAt",
           coalesce((SELECT array_agg(p.provider::text ORDER BY p.provider) FROM provider_connections p
             WHERE p.client_id = c.id), '{}') AS "connectedProviders",
           (SELECT count(*)::int FROM reports r WHERE r.client_id = c.id AND r.archived_at IS NULL) AS "reportCount"
         FROM clients c WHERE c.workspace_id = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT 500`,
        [workspaceId],
      );
      const total =
        rows.length < 500
          ? rows.length
          : (await pool.query('SELECT count(*)::int AS n FROM clients WHERE workspace_id = $1', [workspaceId])).rows[0]
              .n;
      return send(res, 200, { data: rows, meta: { total, truncated: total > rows.length } });
    }
    if (url === '/api/v1/reports') {
      const { rows } = await pool.query(
        'SELECT id, name, client_id AS "clientId", created_at AS "createdAt", updated_at AS "updatedAt" FROM reports ' +
          'WHERE workspace_id = $1 AND archived_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 500',
        [workspaceId],
      );
      const total =
        rows.length < 500
          ? rows.length
          : (
              await pool.query(
                'SELECT count(*)::int AS n FROM reports WHERE workspace_id = $1 AND archived_at IS NULL',
                [workspaceId],
              )
            ).rows[0].n;
      return send(res, 200, { data: rows, meta: { total, truncated: total > rows.length } });
    }
    if (url === '/api/v1/ai-visibility/projects') {
      const { rows } = await pool.query(
        'SELECT id, name, client_id AS "clientId", brand, competitors, models, locales, domains, ' +
          'competitor_domains AS "competitorDomains", created_at AS "createdAt" FROM ai_projects ' +
          'WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT 500',
        [workspaceId],
      );
      const total =
        rows.length < 500
          ? rows.length
          : (await pool.query('SELECT count(*)::int AS n FROM ai_projects WHERE workspace_id = $1', [workspaceId]))
              .rows[0].n;
      return send(res, 200, { data: rows, meta: { total, truncated: total > rows.length } });
    }
    const report = /^\/api\/v1\/reports\/(rep_[0-9A-Za-z]{20})$/.exec(url);
    if (report) {
      const { rows } = await pool.query(
        'SELECT id, name, client_id AS "clientId", created_at AS "createdAt", updated_at AS "updatedAt", definition ' +
          'FROM reports WHERE id = $1 AND workspace_id = $2 AND archived_at IS NULL',
        [report[1], workspaceId],
      );
      if (!rows[0]) return send(res, 404, { error: { code: 'not_found', message: 'No such report.' } });
      // The API writes a field a widget leaves out as null, as its schema declares it.
      const { widgets, dateConfig } = rows[0].definition;
      const definition = {
        widgets: widgets.map((widget: Record<string, unknown>) => ({
          ...widget,
          dimension: widget.dimension ?? null,
          granularity: widget.granularity ?? null,
          limit: widget.limit ?? null,
        })),
        dateConfig,
      };
      return send(res, 200, { data: { ...rows[0], definition }, meta: {} });
    }
    const reportData = /^\/api\/v1\/reports\/(rep_[0-9A-Za-z]{20})\/data$/.exec(url);
    if (reportData) {
      const { rows } = await pool.query(
        'SELECT id, client_id AS "clientId", (SELECT currency FROM clients c WHERE c.id = client_id), definition ' +
          'FROM reports ' +
          'WHERE id = $1 AND workspace_id = $2 AND archived_at IS NULL',
        [reportData[1], workspaceId],
      );
      if (!rows[0]) return send(res, 404, { error: { code: 'not_found', message: 'No such report.' } });
      const { dateConfig } = rows[0].definition;
      const range = resolveDatePreset(
        (search.get('datePreset') ?? dateConfig.datePreset) as DatePreset,
        today(dateConfig.timezone, new Date()),
      );
      return send(
        res,
        200,
        await handReportData(
          pool,
          rows[0],
          range,
          resolveComparePreset((search.get('comparePreset') ?? dateConfig.comparePreset) as ComparePreset, range),
        ),
      );
    }
    const metrics = /^\/api\/v1\/ai-visibility\/projects\/(prj_[0-9A-Za-z]{20})\/metrics$/.exec(url);
    if (metrics) {
      const { rows } = await pool.query(
        'SELECT id FROM ai_projects WHERE id = $1 AND workspace_id = $2 AND archived_at IS NULL',
        [metrics[1], workspaceId],
      );
      if (!rows[0]) return send(res, 404, { error: { code: 'not_found', message: 'No such project.' } });
      return send(res, 200, await handAiMetrics(pool, metrics[1]!, search.get('dateFrom')!, search.get('dateTo')!));
    }
    send(res, 404, { error: { code: 'not_found', message: 'No such path.' } });
  } catch {
    send(res, 500, { error: { code: 'internal_error', message: 'error' } });
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(JSON.stringify({ msg: 'listening', port: address.port }));
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
