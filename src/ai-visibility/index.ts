// The front door of ai-visibility/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { queryProjectMetrics } from './metrics.js';
export type { MetricsResult } from './metrics.js';
export { AI_MODELS } from './models.js';
export { COMPETITOR_COUNTER_FIELDS, COUNTER_FIELDS, ratesOf, ratio } from './pooled-rates.js';
export type { CompetitorCounters, ScanCounters } from './pooled-rates.js';
export { createProject, updateProject } from './project-management.js';
export { projectRepository } from './project-repository.js';
export { COUNTER_COLUMNS } from './scan-columns.js';
export { scanRepository } from './scans-repository.js';
export type { ScanFilter, ScanRow } from './scans-repository.js';
