// The AI-visibility view's arguments and its operation's data (graphql/operations/views/view_visibility.graphql).
import type { Args } from '../common/host.js';
import type { Withheld } from '../common/read.js';

export interface VisibilityArgs extends Args {
  id: string;
  dateFrom?: string;
  dateTo?: string;
  granularity?: 'day' | 'week' | 'month';
  /** The locale shown (each is its own market), among those the data hold. */
  locale?: string;
}

/** The sentiment score's name with its scale: a bare 0.36 says nothing without it. */
export const SENTIMENT_SCALE = 'Sentiment (−1 to +1)';

export interface Rates {
  totalRuns: number;
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  sentiment?: number | null;
}
export interface TrendPoint extends Rates {
  period: string;
  model: string;
  locale: string;
}
export interface LocaleTotals extends Rates {
  locale: string;
  positiveCount: number;
  neutralCount: number;
  negativeCount: number;
  byModel: (Rates & { model: string })[];
  competitors: (Rates & { name: string })[];
}
export interface SourceRow {
  locale: string;
  domain: string;
  citations: number;
  answersCiting: number;
  citationShare: number;
  answerShare: number;
  retrievals: number;
  retrievedNotCited: number;
  owned: boolean;
  competitor: string | null;
}
export interface Opportunities {
  prompts: {
    locale: string;
    prompt: string;
    runs: number;
    brandVisibility: number | null;
    bestCompetitor: { name: string; visibility: number };
    score: number;
  }[];
  sources: {
    locale: string;
    domain: string;
    citations: number;
    answers: number;
    competitors: string[];
    score: number;
  }[];
  pages: { locale: string; url: string; retrievals: number; retrievedNotCited: number; score: number }[];
}
export type Project = NonNullable<VisibilityData['node']>;
export interface VisibilityData {
  node: {
    id: string;
    name: string;
    brand: string;
    competitors: string[];
    models: string[];
    locales: string[];
    trend: TrendPoint[];
    metrics: { data: { range: { from: string; to: string }; totals: LocaleTotals[] } };
    // Left out when the MCP token's consent does not include answers (named in `withheld`).
    sources?: { data: { rows: SourceRow[] } };
    opportunities?: Opportunities;
  } | null;
  withheld?: Withheld;
}

/** The locales a project's data may be shown in: its own, else those its totals hold. */
export const localesOf = (project: Project): string[] =>
  project.locales.length ? project.locales : project.metrics.data.totals.map((row) => row.locale);
