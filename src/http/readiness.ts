// /healthz and /readyz. Alive is the process answering; ready is every dependency answering
// (the database, Redis when configured, every migration applied) and the instance not draining.
// On SIGTERM the instance drains: /readyz answers 503 at once, so a load balancer stops sending
// new requests while the ones in flight finish (server.ts).

import type pg from 'pg';
import { migrationsApplied } from '../db/migrate.js';

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
    Promise.race([probe.check().catch(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref())]);
  return {
    /** From now on the instance reports itself not ready (SIGTERM). */
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async report(): Promise<ReadinessReport> {
      const results = await Promise.all(probes.map(withTimeout));
      const checks = Object.fromEntries(probes.map((probe, index) => [probe.name, results[index] ? 'ok' : 'down'])) as Record<string, 'ok' | 'down'>;
      return { ready: !draining && results.every(Boolean), draining, checks };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

/** The database answers, and every migration of this build is applied (checked until seen once: migrations do not un-apply). */
export function databaseProbes(pool: pg.Pool): ReadinessProbe[] {
  let migrated = false;
  return [
    { name: 'database', check: async () => (await pool.query('SELECT 1')).rowCount === 1 },
    { name: 'migrations', check: async () => (migrated ||= await migrationsApplied(pool)) },
  ];
}
