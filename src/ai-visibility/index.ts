// The front door of ai-visibility/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { queryProjectMetrics } from './metrics/metrics.js';
export type { LocaleTotals, MetricsResult } from './metrics/metrics.js';
export { AI_MODELS, type AiModel } from './shared/models.js';
export { COMPETITOR_COUNTER_FIELDS, COUNTER_FIELDS, ratesOf, ratio } from './metrics/pooled-rates.js';
export type { CompetitorCounters, ScanCounters } from './metrics/pooled-rates.js';
export { archiveProject, createProject, updateProject } from './projects/project-management.js';
export { projectRepository } from './projects/project-repository.js';
export { COUNTER_COLUMNS } from './scans/scan-columns.js';
export { scanRepository } from './scans/scans-repository.js';
export type { ScanFilter, ScanRow } from './scans/scans-repository.js';
export {
  competitorCountersFromRuns,
  competitorsNamed,
  competitorDifferences,
  counterDifferences,
  countersFromRuns,
  runProblems,
  runsDigest,
  SENTIMENTS,
} from './answers/runs.js';
export type { Run, RunCitation, RunCompetitor, RunRetrieval, Sentiment } from './answers/runs.js';
export {
  distinctQueryKeys,
  normaliseUrl,
  pageTotalsOf,
  pagesReadOf,
  retrievedPages,
  searchQueryKey,
  type PageRead,
} from './answers/retrieval.js';
export { orderedMembers, stringSetId } from './shared/string-sets.js';
export { byCodePoint } from './shared/code-point-order.js';
export { urlFacts } from './sources/url-facts.js';
export type { RetrievedPage } from './answers/retrieval.js';
export {
  domainOwnership,
  normaliseDomain,
  ownedSpellings,
  parseCompetitorDomains,
  registrableDomain,
} from './sources/domains.js';
export type { CompetitorDomains, DomainOwnership } from './sources/domains.js';
export { sourceRow, sourceTotalsOf } from './sources/source-shares.js';
export type { SourceRow, SourceSums } from './sources/source-shares.js';
export { querySources, SOURCE_GROUPINGS, sourcesStatement, sourcesValues } from './sources/sources.js';
export type { SourceFilter, SourceGrouping } from './sources/sources.js';
export { answerRepository } from './answers/answer-repository.js';
export type { AnswerCursor, AnswerFilter, AnswerRow } from './answers/answer-repository.js';
export { promptRepository } from './prompts/prompt-repository.js';
export type { PromptFilter, PromptRow } from './prompts/prompt-repository.js';
export type { RunFilter } from './shared/run-filter.js';
export { metricsRange, rangeRuleText, SCAN_RANGE } from './shared/read-filters.js';
export { ROW_EXPORTS } from './exports.js';
export type { ExportArgs, RowExport } from './exports.js';
export type { ProjectRow } from './projects/project-repository.js';
export {
  addPrompts,
  listPrompts,
  PROMPT_LIMITS,
  setProjectDomains,
  setPromptsArchived,
  updatePrompts,
} from './prompts/prompt-management.js';
export type { PromptInput, PromptView } from './prompts/prompt-management.js';
export { querySearchQueries, searchQueriesOfPrompts } from './search-queries/search-queries.js';
export type { SearchQueryFilter, SearchQueryRow } from './search-queries/search-queries.js';
