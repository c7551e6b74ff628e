// How many rows an AI-visibility read can return, for the GraphQL cost (graphql/cost.ts), which is
// computed before anything runs, without the project: a list per locale counts the most locales a
// project's data can span (PROJECT_LIMITS), a list per model the fixed models, and one of either
// when the arguments name it. test/graphql/cost-counts-rows.test.ts compares with what is returned.
import { AI_MODELS } from './models.js';

/**
 * The most locales and competitors a project tracks, and the most its stored scans may span
 * (removing one and adding another keeps the old one's data; projects/project-management.ts
 * refuses more): every list a read returns per locale or per competitor is counted at these.
 */
export const PROJECT_LIMITS = { locales: 50, competitors: 50 } as const;

export const MAX_ROWS = {
  locales: PROJECT_LIMITS.locales,
  models: AI_MODELS.length,
  competitors: PROJECT_LIMITS.competitors,
} as const;

/** Locales a read returns rows for: one when `locale` names it. */
export const localesOf = (args: { locale?: string | null | undefined }) => (args.locale ? 1 : MAX_ROWS.locales);
export const modelsOf = (args: { model?: string | null | undefined }) => (args.model ? 1 : MAX_ROWS.models);
