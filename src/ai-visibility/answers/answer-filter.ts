// The answers read's filter: the run filter, a prompt, whether the brand is mentioned, and a cited
// domain (a range of answers by domain takes the narrower DOMAIN_RANGE). The resolver and the export call it.
import { invalidParameter } from '../../errors/index.js';
import { DOMAIN_RANGE, RUN_RANGE, runFilterOf, type RunFilterArgs } from '../common/read-filters.js';
import type { RunFilter } from '../common/run-filter.js';
import { normaliseDomain } from '../sources/domains.js';

export interface AnswerFilter extends RunFilter {
  promptId: string | null;
  mentioned: boolean | null;
  domain: string | null;
}

export interface AnswerArgs extends RunFilterArgs {
  promptId?: string | null | undefined;
  mentioned?: boolean | null | undefined;
  domain?: string | null | undefined;
}

/** The filter of the answers endpoint and its export. */
export function answerFilterOf(args: AnswerArgs, now: Date): AnswerFilter {
  let domain: string | null = null;
  if (args.domain != null) {
    domain = normaliseDomain(args.domain);
    if (!domain) throw invalidParameter('domain', 'domain must be a domain name such as reddit.com.');
  }
  return {
    ...runFilterOf(args, now, domain ? DOMAIN_RANGE : RUN_RANGE),
    promptId: args.promptId ?? null,
    mentioned: args.mentioned ?? null,
    domain,
  };
}
