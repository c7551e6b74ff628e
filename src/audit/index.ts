// The front door of audit/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { listAuditLog, recordAudit, recordPersonAudit } from './audit-log.js';
export type { AuditView } from './audit-log.js';
