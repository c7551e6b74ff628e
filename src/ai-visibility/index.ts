// The front door of ai-visibility/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { queryProjectMetrics } from './metrics.js';
export type { LocaleTotals, MetricsResult } from './metrics.js';
export { AI_MODELS, type AiModel } from './models.js';
export { COMPETITOR_COUNTER_FIELDS, COUNTER_FIELDS, ratesOf, ratio } from './pooled-rates.js';
export type { CompetitorCounters, ScanCounters } from './pooled-rates.js';
export { archiveProject, createProject, updateProject } from './project-management.js';
export { projectRepository } from './project-repository.js';
export { COUNTER_COLUMNS } from './scan-columns.js';
export { scanRepository } from './scans-repository.js';
export type { ScanFilter, ScanRow } from './scans-repository.js';
export {
  competitorCountersFromRuns,
  competitorsNamed,
  competitorDifferences,
  counterDifferences,
  countersFromRuns,
  runProblems,
  runsDigest,
  SENTIMENTS,
} from './runs.js';
export type { Run, RunCitation, RunCompetitor, RunRetrieval, Sentiment } from './runs.js';
export {
  distinctQueryKeys,
  normaliseUrl,
  pageTotalsOf,
  pagesReadOf,
  retrievedPages,
  searchQueryKey,
  type PageRead,
} from './retrieval.js';
export { orderedMembers, stringSetId } from './string-sets.js';
export { byCodePoint } from './code-point-order.js';
export { urlFacts } from './url-facts.js';
export type { RetrievedPage } from './retrieval.js';
export {
  domainOwnership,
  normaliseDomain,
  ownedSpellings,
  parseCompetitorDomains,
  registrableDomain,
} from './domains.js';
export type { CompetitorDomains, DomainOwnership } from './domains.js';
export { sourceRow, sourceTotalsOf } from './source-shares.js';
export type { SourceRow, SourceSums } from './source-shares.js';
export { querySources, SOURCE_GROUPINGS, sourcesStatement, sourcesValues } from './sources.js';
export type { SourceFilter, SourceGrouping } from './sources.js';
export { answerRepository } from './answer-repository.js';
export type { AnswerCursor, AnswerFilter, AnswerRow } from './answer-repository.js';
export { promptRepository } from './prompt-repository.js';
export type { PromptFilter, PromptRow } from './prompt-repository.js';
export type { RunFilter } from './run-filter.js';
export { metricsRange, rangeRuleText, SCAN_RANGE } from './read-filters.js';
export { ROW_EXPORTS } from './exports.js';
export type { ExportArgs, RowExport } from './exports.js';
export type { ProjectRow } from './project-repository.js';
export {
  addPrompts,
  listPrompts,
  PROMPT_LIMITS,
  setProjectDomains,
  setPromptsArchived,
  updatePrompts,
} from './prompt-management.js';
export type { PromptInput, PromptView } from './prompt-management.js';
export { querySearchQueries, searchQueriesOfPrompts } from './search-queries.js';
export type { SearchQueryFilter, SearchQueryRow } from './search-queries.js';
