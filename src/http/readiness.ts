// /healthz and /readyz. Alive is the process answering; ready is every dependency answering
// (the database, Redis when configured, every migration applied) and the instance not draining.
// On SIGTERM the instance drains: /readyz answers 503 at once, so a load balancer stops sending
// new requests while the ones in flight finish (server.ts).

import type pg from 'pg';
import { migrationsApplied } from '../db/migrate.js';
import { jsonResponse } from './responses.js';

export interface ReadinessProbe {
  name: string;
  /** Resolves true when the dependency answers; a probe slower than the timeout counts as down. */
  check(): Promise<boolean>;
}

export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  checks: Record<string, 'ok' | 'down'>;
}

const PROBE_TIMEOUT_MS = 2_000;

export function createReadiness(probes: readonly ReadinessProbe[]) {
  let draining = false;
  const withTimeout = (probe: ReadinessProbe) =>
    Promise.race([
      probe.check().catch(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref()),
    ]);
  return {
    /** From now on the instance reports itself not ready (SIGTERM). */
    drain() {
      draining = true;
    },
    async report(): Promise<ReadinessReport> {
      const results = await Promise.all(probes.map(withTimeout));
      const checks = Object.fromEntries(
        probes.map((probe, index) => [probe.name, results[index] ? 'ok' : 'down']),
      ) as Record<string, 'ok' | 'down'>;
      return { ready: !draining && results.every(Boolean), draining, checks };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

/**
 * The database answers, and every migration of this build is applied (checked until seen once: migrations do not
 * un-apply).
 */
export function databaseProbes(pool: pg.Pool): ReadinessProbe[] {
  let migrated = false;
  return [
    { name: 'database', check: async () => (await pool.query('SELECT 1')).rowCount === 1 },
    { name: 'migrations', check: async () => (migrated ||= await migrationsApplied(pool)) },
  ];
}

/** /readyz's answer: 200 with the checks, or 503 naming what is down (or that the instance is draining). */
export function readinessResponse(report: ReadinessReport, requestId: string): Response {
  if (report.ready)
    return jsonResponse({ status: 'ready', checks: report.checks }, 200, { 'Cache-Control': 'no-store' });
  const down = Object.entries(report.checks)
    .filter(([, state]) => state === 'down')
    .map(([name]) => name);
  const message = report.draining ? 'This instance is shutting down.' : `Not ready: ${down.join(', ')} not answering.`;
  return jsonResponse(
    {
      status: report.draining ? 'draining' : 'not_ready',
      checks: report.checks,
      error: { code: 'unavailable', message, requestId },
    },
    503,
    { 'Retry-After': '2', 'Cache-Control': 'no-store' },
  );
}
