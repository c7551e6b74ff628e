// The front door of ai-visibility/: what other features use, and nothing more. Files elsewhere import
// from here, not from the rooms behind it (composition roots and type modules excepted; test/layers.test.ts).

// Shared: the fixed models, the read ranges other features state, the order of names, string sets.
export { AI_MODELS, type AiModel } from './common/models.js';
export { SCAN_RANGE } from './common/read-filters.js';
export type { RunFilter } from './common/run-filter.js';
export { byCodePoint } from './common/code-point-order.js';
export { orderedMembers, stringSetId } from './common/string-sets.js';

// Projects: the repository and the admin commands.
export { projectRepository, type ProjectRow } from './projects/project-repository.js';
export { archiveProject, createProject, updateProject } from './projects/project-management.js';
export { setProjectDomains } from './projects/project-domains.js';

// Prompts: the repository and the admin commands.
export { promptRepository, type PromptRow } from './prompts/prompt-repository.js';
export { addPrompts, listPrompts, setPromptsArchived, updatePrompts } from './prompts/prompt-management.js';
export type { PromptView } from './prompts/prompt-management.js';
export { ADD_PROMPTS_INPUT, PROMPT_IDS_INPUT, promptsToAdd, UPDATE_PROMPTS_INPUT } from './prompts/prompt-input.js';

// Answers (runs): the repository, and what ingestion derives from a scan's runs.
export { answerRepository, answersReadMaxBytes, type AnswerRow } from './answers/answer-repository.js';
export {
  competitorCountersFromRuns,
  competitorDifferences,
  competitorsNamed,
  counterDifferences,
  countersFromRuns,
  runProblems,
  runsDigest,
  SENTIMENTS,
} from './answers/runs.js';
export type { Run, RunCitation, Sentiment } from './answers/runs.js';
export { distinctQueryKeys, normaliseUrl, pagesReadOf, pageTotalsOf, retrievedPages } from './answers/retrieval.js';
export type { PageRead } from './answers/retrieval.js';

// Sources: cited domains and URLs, and the per-scan source totals ingestion stores.
export { ownedSpellings, parseCompetitorDomains, registrableDomain } from './sources/domains.js';
export { urlFacts } from './sources/url-facts.js';
export { sourceTotalsOf } from './sources/source-shares.js';

// Search queries: the graph's prompt → searchQueries loader.
export { searchQueriesOfPrompts, type SearchQueryRow } from './search-queries/search-queries.js';

// Scans and metrics: the counters' columns and contract, the scans repository, the metrics read.
export { COUNTER_COLUMNS } from './scans/scan-columns.js';
export { scanRepository, type ScanFilter, type ScanRow } from './scans/scans-repository.js';
export { COMPETITOR_COUNTER_FIELDS, COUNTER_FIELDS, ratesOf, ratio } from './metrics/pooled-rates.js';
export type { CompetitorCounters, ScanCounters } from './metrics/pooled-rates.js';
export type { LocaleTotals, MetricsResult } from './metrics/metrics.js';
export { queryProjectMetrics, type MetricsProject } from './metrics/project-metrics.js';

// Exports: what the v1 CSV and NDJSON routes stream.
export { ROW_EXPORTS, type ExportArgs, type RowExport } from './exports.js';
