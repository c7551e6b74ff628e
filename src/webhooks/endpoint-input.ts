// The inputs of the webhooks' admin commands, declared once (errors/command-input.ts):
// settings and the CLI parse with them, and the MCP write tool advertises and parses the same.
import { z } from 'zod/v4';
import { underRule, type CommandInput } from '../errors/command-input.js';
import { EVENT_TYPES } from './outbox.js';

/** The one description rule: at most 500 characters; blank or absent is no description. */
export const ENDPOINT_DESCRIPTION = z.string().max(500, 'a description is at most 500 characters');

/** What creating an endpoint takes (its workspace and actor come from the door). */
export const CREATE_ENDPOINT_INPUT = {
  url: z.string(),
  eventTypes: z.array(z.enum(EVENT_TYPES)).optional(),
  description: ENDPOINT_DESCRIPTION.optional(),
};

const A_TIME = 'an ISO 8601 date or time, e.g. 2026-11-20T00:00:00Z';
const isTime = (text: string) => /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(new Date(text).getTime());

/** What replaying the failed deliveries takes: since when (a string in the schema; `replaySince` reads it). */
export const REPLAY_FAILED_INPUT = {
  since: z.string({ error: A_TIME }).refine(isTime, A_TIME).describe('ISO 8601, e.g. 2026-11-20T00:00:00Z'),
};

/** The replay's start from its parsed input. */
export const replaySince = (input: CommandInput<typeof REPLAY_FAILED_INPUT>) => new Date(input.since);

/** The create command's fields from its parsed input: every event type when none is named. */
export const endpointToCreate = (input: CommandInput<typeof CREATE_ENDPOINT_INPUT>) => ({
  ...input,
  eventTypes: input.eventTypes ?? [...EVENT_TYPES],
});

/** A description as stored: trimmed, blank as null, refused past the rule (a caller that skipped the parse). */
export function endpointDescription(text: string | null | undefined): string | null {
  const description = text?.trim() || null;
  return description === null ? null : underRule(ENDPOINT_DESCRIPTION, description);
}
