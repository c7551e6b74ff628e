// Registrable domains of cited URLs, from the public suffix list (tldts ships it and is kept
// current upstream): blog.example.co.uk → example.co.uk. Private suffixes count, so two
// sites on github.io are two domains. An IP address stands for itself; any other host without a
// registrable domain (a bare suffix such as co.uk, a single label such as localhost) is refused at
// ingestion. One spelling per domain: the ASCII one (IDNA, punycode), as a URL parser writes the
// host — `пример.рф` and `xn--e1afmkfd.xn--p1ai` are one domain, stored and reported as the latter.
import { createRequire } from 'node:module';
import { domainToUnicode } from 'node:url';
import { LRUCache } from 'lru-cache';
import type * as Tldts from 'tldts';
import { UsageError } from '../../errors/index.js';
import { urlFacts } from './url-facts.js';

/**
 * tldts and its suffix list are loaded by the first domain read, synchronously since its callers
 * are: an instance that never reads cited sources never holds them.
 */
let tldts: typeof Tldts | null = null;
const parse: typeof Tldts.parse = (url, options) =>
  (tldts ??= createRequire(import.meta.url)('tldts') as typeof Tldts).parse(url, options);

/** The host of a URL as the URL parser writes it (lower-case, ASCII), or null for no URL. */
const asciiHost = (url: string): string | null => urlFacts(url)?.hostname ?? null;

/**
 * Registrable domains by host, as looked up lately: ingestion asks for each cited or read URL's
 * domain several times (validation, the rows, the per-scan totals) and a scan file repeats its
 * hosts thousands of times, where the suffix-list lookup is most of a call
 * (docs/decisions/ai-visibility-url-and-domain-facts.md). Hosts are at most 253 characters, so the
 * entries bound the memory; full, the least recently used host goes.
 */
const DOMAINS_BY_HOST_ENTRIES = 10_000;
const domainsByHost = new LRUCache<string, string>({ max: DOMAINS_BY_HOST_ENTRIES });

/**
 * The registrable domain of a URL, in ASCII; an IP address itself; '' when it has neither (ingestion refuses
 * those).
 */
export function registrableDomain(url: string): string {
  const host = asciiHost(url);
  if (!host) return '';
  const known = domainsByHost.get(host);
  if (known !== undefined) return known;
  const parsed = parse(host, { allowPrivateDomains: true });
  const domain = (parsed.isIp ? parsed.hostname : parsed.domain) ?? '';
  // A longer host is no DNS name (and is refused at ingestion): not remembered, so the bound holds.
  if (host.length > 253) return domain;
  domainsByHost.set(host, domain);
  return domain;
}

/**
 * A domain as an owner or a filter types it ("Example.com", "https://www.пример.рф/") → its
 * registrable domain in ASCII, or null.
 */
export function normaliseDomain(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 253) return null;
  const host = asciiHost(trimmed.includes('://') ? trimmed : `https://${trimmed}`);
  return host ? parse(host, { allowPrivateDomains: true }).domain : null;
}

/**
 * The spellings a stored row may hold for an ASCII domain: rows ingested before one spelling was
 * chosen kept a Unicode host's Unicode form, so filters look for both
 * (docs/decisions/ai-visibility-url-and-domain-facts.md).
 */
export function storedSpellings(domain: string): string[] {
  const unicode = domainToUnicode(domain);
  return unicode && unicode !== domain ? [domain, unicode] : [domain];
}

/** Is `domain` owned by the brand, and which competitor (if any) holds it. */
export interface DomainOwnership {
  owned: ReadonlySet<string>;
  competitorOf: ReadonlyMap<string, string>;
}

export interface CompetitorDomains {
  name: string;
  domains: string[];
}

/**
 * A project's (or competitor's) domains in every spelling a row may hold: one saved before one spelling was
 * chosen may list a Unicode domain.
 */
export const ownedSpellings = (domains: readonly string[]) =>
  domains.flatMap((domain) => storedSpellings(normaliseDomain(domain) ?? domain));

export function domainOwnership(
  domains: readonly string[],
  competitorDomains: readonly CompetitorDomains[],
): DomainOwnership {
  const competitorOf = new Map<string, string>();
  for (const competitor of competitorDomains)
    for (const domain of ownedSpellings(competitor.domains))
      if (!competitorOf.has(domain)) competitorOf.set(domain, competitor.name);
  return { owned: new Set(ownedSpellings(domains)), competitorOf };
}

/** The ownership marks of a project row (competitorDomains is stored as JSON). */
export const ownershipOf = (project: { domains: string[]; competitorDomains: unknown }) =>
  domainOwnership(project.domains, project.competitorDomains as CompetitorDomains[]);

/** "Globex=globex.com,globex.de" (the CLI's --competitor, a settings line): a competitor's name and domains. */
export function parseCompetitorDomains(entry: string): CompetitorDomains {
  const separator = entry.indexOf('=');
  if (separator < 1)
    throw new UsageError(
      `a competitor's domains are written "Name=domain.com,other.com"; got ${JSON.stringify(entry.slice(0, 100))}`,
    );
  return {
    name: entry.slice(0, separator).trim(),
    domains: entry
      .slice(separator + 1)
      .split(',')
      .map((domain) => domain.trim())
      .filter(Boolean),
  };
}
