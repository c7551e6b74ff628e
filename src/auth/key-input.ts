// The input of the create-key admin command, declared once (errors/command-input.ts): settings and
// the CLI parse with it, each after turning its own format (form fields, options) into it.
import { z } from 'zod/v4';
import type { CommandInput } from '../errors/command-input.js';
import { SCOPES } from './scopes.js';

const NAMED = 'a key needs a name of 1-100 characters';
/** The name rule, also held by the command for callers that skip the parse. */
export const KEY_NAME = z.string({ error: NAMED }).trim().min(1, NAMED).max(100, NAMED);

/** A date alone is the end of that day (UTC): a key made to expire "on" a date works through it. */
const expiryOf = (text: string) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T23:59:59Z` : text);
const isExpiry = (text: string) => /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(expiryOf(text).getTime());

export const CREATE_KEY_INPUT = {
  name: KEY_NAME,
  /** None (or an empty list) is every scope. */
  scopes: z.array(z.enum(SCOPES, { error: `a scope is one of ${SCOPES.join(', ')}` })).optional(),
  expiresAt: z
    .string()
    .trim()
    .refine(isExpiry, 'expiry is an ISO 8601 date or date-time')
    .transform(expiryOf)
    .optional(),
};

/** The create command's fields from its parsed input: every scope when none is named, each once. */
export const keyToCreate = (input: CommandInput<typeof CREATE_KEY_INPUT>) => ({
  ...input,
  scopes: input.scopes?.length ? [...new Set(input.scopes)] : [...SCOPES],
});
