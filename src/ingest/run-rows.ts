// The rows a scan's runs become, column by column (columns.ts): per run its answer and citations,
// each query and named-competitor set once per ingestion, and per scan its totals per page and per
// domain that sources and opportunities read.
import {
  competitorsNamed,
  distinctQueryKeys,
  normaliseUrl,
  orderedMembers,
  pageTotalsOf,
  pagesReadOf,
  registrableDomain,
  retrievedPages,
  sourceTotalsOf,
  stringSetId,
  type PageRead,
  type Run,
} from '../ai-visibility/index.js';
import { newId } from '../db/ids.js';
import { columnsOf, pushRow } from './columns.js';

export interface StoredScan {
  scanId: string;
  workspaceId: string;
  /** False when the scan existed and changed: its earlier runs go. */
  inserted: boolean;
  scan: { projectId: string; date: string; model: string; locale: string; runs?: Run[] | undefined };
}

export type RunRows = ReturnType<typeof emptyRows>;

export const emptyRows = () => ({
  answers: columnsOf([
    'id',
    'workspace',
    'project',
    'scan',
    'prompt',
    'date',
    'model',
    'locale',
    'text',
    'brand',
    'total',
    'position',
    'sentiment',
    'competitors',
    'citations',
    'searches',
    'retrieved',
    'querySet',
    'competitorSet',
    'pagesRead',
  ] as const),
  citations: columnsOf([
    'answer',
    'position',
    'workspace',
    'project',
    'prompt',
    'date',
    'model',
    'locale',
    'url',
    'domain',
  ] as const),
  sets: columnsOf(['project', 'id', 'workspace', 'members'] as const),
  pages: columnsOf([
    'scan',
    'url',
    'workspace',
    'project',
    'date',
    'model',
    'locale',
    'domain',
    'retrievals',
    'notCited',
  ] as const),
  sources: columnsOf([
    'scan',
    'domain',
    'workspace',
    'project',
    'date',
    'model',
    'locale',
    'citations',
    'answers',
    'retrievals',
    'notCited',
    'brand',
    'gapCitations',
    'gapAnswers',
    'gapCompetitors',
  ] as const),
});

/** Queues `stored`'s runs as rows: its answers and citations, new sets, and its totals. */
export function pushScanRows(
  rows: RunRows,
  stored: StoredScan,
  promptIds: ReadonlyMap<string, string>,
  setsSeen: Set<string>,
) {
  const { workspaceId, scan } = stored;
  // A set's id; a set not queued yet in this ingestion becomes a row (written before its answers' group ends).
  const setIdOf = (members: string[]) => {
    const id = stringSetId(members);
    if (id && !setsSeen.has(`${scan.projectId}|${id}`)) {
      setsSeen.add(`${scan.projectId}|${id}`);
      pushRow(rows.sets, [scan.projectId, id, workspaceId, orderedMembers(members)]);
    }
    return id;
  };
  const runsPages: PageRead[][] = [];
  for (const run of scan.runs!) {
    const promptId = promptIds.get(`${scan.projectId}|${run.prompt}`)!;
    runsPages.push(pushRunRows(rows, stored, run, promptId, setIdOf));
  }
  pushPageTotals(rows, stored, runsPages);
  pushSourceTotals(rows, stored);
}

/** One run's answer and its citations; returns the pages it read. */
function pushRunRows(
  { answers, citations }: RunRows,
  { scanId, workspaceId, scan }: StoredScan,
  run: Run,
  promptId: string,
  setIdOf: (members: string[]) => string | null,
): PageRead[] {
  const answerId = newId('answer');
  const cited = (run.citations ?? []).map((citation, index) => ({
    position: index + 1,
    url: citation.url,
    domain: registrableDomain(citation.url),
    title: citation.title ?? null,
  }));
  const read = retrievedPages(run);
  const pagesRead = pagesReadOf(read);
  const querySet = setIdOf(distinctQueryKeys(run));
  const competitorSet = setIdOf(competitorsNamed(run));
  pushRow(answers, [
    answerId,
    workspaceId,
    scan.projectId,
    scanId,
    promptId,
    scan.date,
    scan.model,
    scan.locale,
    run.answer,
    run.brandMentions,
    run.totalMentions,
    run.position,
    run.sentiment,
    run.competitors ?? [],
    cited,
    run.searchQueries ?? [],
    read,
    querySet,
    competitorSet,
    pagesRead,
  ]);
  // Under its normalised URL, as pages read are: sources by URL join the two on it.
  for (const citation of cited) {
    pushRow(citations, [
      answerId,
      citation.position,
      workspaceId,
      scan.projectId,
      promptId,
      scan.date,
      scan.model,
      scan.locale,
      normaliseUrl(citation.url),
      citation.domain,
    ]);
  }
  return pagesRead;
}

/** The scan's totals per page read. */
function pushPageTotals({ pages }: RunRows, { scanId, workspaceId, scan }: StoredScan, runsPages: PageRead[][]) {
  for (const [url, totals] of pageTotalsOf(runsPages)) {
    pushRow(pages, [
      scanId,
      url,
      workspaceId,
      scan.projectId,
      scan.date,
      scan.model,
      scan.locale,
      totals.domain,
      totals.retrievals,
      totals.retrievedNotCited,
    ]);
  }
}

/** The scan's totals per cited or retrieved domain. */
function pushSourceTotals({ sources }: RunRows, { scanId, workspaceId, scan }: StoredScan) {
  for (const [domain, totals] of sourceTotalsOf(scan.runs!)) {
    pushRow(sources, [
      scanId,
      domain,
      workspaceId,
      scan.projectId,
      scan.date,
      scan.model,
      scan.locale,
      totals.citations,
      totals.answersCiting,
      totals.retrievals,
      totals.retrievedNotCited,
      totals.brandAnswers,
      totals.gapCitations,
      totals.gapAnswers,
      [...totals.gapCompetitors].sort(),
    ]);
  }
}
