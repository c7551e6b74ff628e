// The front door of ingest/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { writeMetricFacts } from './metric-facts.js';
export type { MetricFactInput } from './metric-facts.js';
export { writeScans } from './scans.js';
export { RUN_LIMITS } from './run-schema.js';
export type { ScanInput } from './scan-lines.js';
export { ingest, UnnamedBody, type IngestKind } from './service.js';
export { createIngestShares } from './shares.js';
