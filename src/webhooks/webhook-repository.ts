// The workspace's webhook endpoints, delivery attempts and events as the graph, settings and the
// CLI read them: tenant statements on the scope (secrets are never read here).
import { tenantStatement } from '../db/tenant-sql.js';
import type { WorkspaceScope } from '../db/workspace-scope.js';

export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

export interface AttemptView {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveryStatus: string;
}

export interface EventRow {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  deliveries: {
    endpointId: string;
    status: string;
    attemptCount: number;
    lastResponseStatus: number | null;
    lastError: string | null;
    nextAttemptAt: string | null;
    finishedAt: string | null;
  }[];
}

const ENDPOINTS = tenantStatement<EndpointRow>(
  'webhooks.endpoints',
  (workspace) => `SELECT id, url, description, event_types AS "eventTypes", enabled,
      disabled_reason AS "disabledReason", failing_since AS "failingSince", created_at AS "createdAt"
    FROM webhook_endpoints WHERE ${workspace()} ORDER BY created_at DESC`,
);

const ATTEMPTS = tenantStatement<AttemptView, { endpointId: string; limit: number }>(
  'webhooks.attempts',
  (workspace, param) => `SELECT a.id, d.event_id AS "eventId", e.type AS "eventType", a.attempt,
      a.response_status AS "responseStatus", a.latency_ms AS "latencyMs", a.error,
      a.next_attempt_at AS "nextAttemptAt", a.created_at AS "createdAt", d.status AS "deliveryStatus"
    FROM webhook_attempts a
      JOIN webhook_endpoints ep ON ep.id = a.endpoint_id
      JOIN webhook_deliveries d ON d.id = a.delivery_id
      JOIN webhook_events e ON e.id = d.event_id
    WHERE ${workspace('ep')} AND a.endpoint_id = ${param('endpointId')}
    ORDER BY a.created_at DESC, a.id DESC LIMIT ${param('limit')}`,
);

// The event and each endpoint's delivery of it (the deliveries hang on the workspace's event).
const EVENT = tenantStatement<EventRow, { id: string }>(
  'webhooks.event',
  (workspace, param) => `SELECT e.id, e.type, e.payload, e.created_at AS "createdAt",
      coalesce((SELECT jsonb_agg(jsonb_build_object('endpointId', d.endpoint_id, 'status', d.status,
                  'attemptCount', d.attempt_count, 'lastResponseStatus', d.last_response_status,
                  'lastError', d.last_error, 'nextAttemptAt', d.next_attempt_at, 'finishedAt', d.finished_at)
                  ORDER BY d.created_at)
                FROM webhook_deliveries d WHERE d.event_id = e.id), '[]'::jsonb) AS deliveries
    FROM webhook_events e WHERE ${workspace('e')} AND e.id = ${param('id')}`,
);

export function webhookRepository(scope: WorkspaceScope) {
  return {
    /** The workspace's endpoints, newest first. */
    endpoints: () => scope.rows(ENDPOINTS),
    /** The newest attempts of one of the workspace's endpoints, at most `limit`. */
    attempts: (endpointId: string, limit: number) => scope.rows(ATTEMPTS, { endpointId, limit }),
    /** One event with its deliveries; null when the workspace has none by that id. */
    event: async (id: string): Promise<EventRow | null> => (await scope.rows(EVENT, { id }))[0] ?? null,
  };
}
