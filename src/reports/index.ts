// The front door of reports/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { ALL_METRIC_NAMES, METRIC_COLUMNS, METRIC_VALUE_MAX, PROVIDERS, baseMetricsOf, catalog } from './catalog.js';
export type { ProviderId } from './catalog.js';
export { COMPARE_PRESETS, DATE_PRESETS } from './date-presets.js';
export { GRANULARITIES, WIDGET_TYPES } from './definition.js';
export type { ReportDefinition } from './definition.js';
export { computeReportData } from './engine.js';
export type { ReportData } from './engine.js';
export {
  archiveReport,
  createReport,
  updateReport,
  updateReportWidgets,
  addWidget,
  duplicateReport,
  removeWidget,
} from './report-management.js';
export {
  CREATE_REPORT_INPUT,
  CREATE_REPORT_WIDGET,
  reportDefinitionInput,
  reportToCreate,
  reportWidgetInput,
} from './report-input.js';
export { reportRepository } from './repository.js';
export type { ReportRow, ReportSummaryRow } from './repository.js';
