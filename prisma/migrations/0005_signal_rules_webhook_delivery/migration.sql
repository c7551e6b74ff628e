-- Signal rules per project. A kind without a row runs with its default threshold.
CREATE TABLE "signal_rules" (
    "project_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signal_rules_pkey" PRIMARY KEY ("project_id", "kind")
);
ALTER TABLE "signal_rules" ADD CONSTRAINT "signal_rules_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "ai_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A replaced scan's signals are found by scan.
CREATE INDEX "signals_scan_id_idx" ON "signals"("scan_id");

-- Endpoints: a description; enabled_at bounds which events an endpoint receives (those created
-- after it was created or re-enabled); failing_since drives the five-day disable.
ALTER TABLE "webhook_endpoints"
    ADD COLUMN "description" TEXT,
    ADD COLUMN "enabled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    ADD COLUMN "disabled_reason" TEXT,
    ADD COLUMN "failing_since" TIMESTAMPTZ(3);

ALTER TABLE "webhook_deliveries"
    ADD COLUMN "finished_at" TIMESTAMPTZ(3),
    ADD COLUMN "last_error" TEXT;

-- Every attempt, as admins see it.
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "response_status" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "webhook_attempts_endpoint_id_created_at_idx" ON "webhook_attempts"("endpoint_id", "created_at" DESC);
CREATE INDEX "webhook_attempts_delivery_id_idx" ON "webhook_attempts"("delivery_id");

-- The worker's three questions, each answered by a small partial index (Prisma cannot express
-- partial indexes: keep these when `prisma migrate diff` proposes to drop them):
-- which events still need fanning out, which deliveries are due per endpoint, how many are in flight.
DROP INDEX "webhook_events_dispatched_at_created_at_idx";
CREATE INDEX "webhook_events_undispatched_idx" ON "webhook_events"("created_at") WHERE "dispatched_at" IS NULL;
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events"("created_at");
DROP INDEX "webhook_deliveries_status_next_attempt_at_idx";
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("endpoint_id", "next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_in_flight_idx" ON "webhook_deliveries"("endpoint_id") WHERE "status" = 'delivering';
CREATE INDEX "webhook_deliveries_failed_idx" ON "webhook_deliveries"("finished_at") WHERE "status" = 'failed';

-- Ids for rows the worker creates in bulk inside one statement (deliveries, attempts): the same
-- shape as src/db/ids.ts. Not secrets, so random() is enough.
CREATE FUNCTION "new_id"("prefix" TEXT) RETURNS TEXT LANGUAGE sql VOLATILE AS $$
    SELECT "prefix" || '_' || string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 62)::int, 1), '')
    FROM generate_series(1, 20)
$$;
