// The answers view's arguments and its operation's data (graphql/operations/views/view_answers.graphql).
import type { Args } from '../common/host.js';
import type { Withheld } from '../common/read.js';

export interface AnswersArgs extends Args {
  id: string;
  promptId?: string;
  dateFrom?: string;
  dateTo?: string;
  cursor?: string;
  /** The cursors of the nearest pages before this one (shared/pages.ts). */
  before?: string[];
  /** This page's number, from 1. */
  page?: number;
}

export interface Totals {
  locale: string;
  totalRuns: number;
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  sentiment: number | null;
}
export interface Answer {
  id: string;
  promptId: string;
  prompt: string;
  date: string;
  model: string;
  locale: string;
  text: string;
  brandMentions: number;
  totalMentions: number;
  position: number | null;
  /** The classification of the answer's tone towards the brand, as the API gives it; null when not classified. */
  sentiment: 'positive' | 'neutral' | 'negative' | null;
  competitors: { name: string; mentions: number; position: number | null }[];
  citations: { position: number; url: string; domain: string; title: string | null }[];
  searchQueries: string[];
  retrieved: { url: string; domain: string; title: string | null; cited: boolean }[];
}
export interface Project {
  id: string;
  name: string;
  brand: string;
  competitors: string[];
}
export interface Prompt {
  id: string;
  text: string;
  topic: string | null;
  totals: Totals[];
}
export interface AnswersData {
  // Left out when the MCP token's consent does not include visibility, or prompts (named in `withheld`).
  aiVisibilityProjects?: { data: Project[] };
  aiVisibilityPrompts?: { data: Prompt[] };
  aiVisibilityAnswers: { data: Answer[]; meta: { total: number; nextCursor: string | null } };
  withheld?: Withheld;
}
