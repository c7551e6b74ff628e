// Registrable domains of cited URLs, from the public suffix list (tldts ships it and is kept
// current upstream): blog.example.co.uk → example.co.uk. Private suffixes count, so two
// sites on github.io are two domains. A host without a registrable domain (an IP address,
// localhost) stands for itself.
import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';
import { UsageError } from '../errors/index.js';

/**
 * tldts and its suffix list (~1.1 MB of heap) are loaded by the first domain read, synchronously
 * since its callers are: an instance that never reads cited sources never holds them.
 */
let tldts: typeof Tldts | null = null;
const parse: typeof Tldts.parse = (url, options) => (tldts ??= createRequire(import.meta.url)('tldts') as typeof Tldts).parse(url, options);

export function registrableDomain(url: string): string {
  const parsed = parse(url, { allowPrivateDomains: true });
  return (parsed.domain ?? parsed.hostname ?? '').toLowerCase();
}

/** A domain as an owner types it ("Example.com", "https://www.example.com/") → its registrable domain, or null. */
export function normaliseDomain(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 253) return null;
  const parsed = parse(trimmed.includes('://') ? trimmed : `https://${trimmed}`, { allowPrivateDomains: true });
  return parsed.domain ? parsed.domain.toLowerCase() : null;
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

export function domainOwnership(domains: readonly string[], competitorDomains: readonly CompetitorDomains[]): DomainOwnership {
  const competitorOf = new Map<string, string>();
  for (const competitor of competitorDomains) for (const domain of competitor.domains) if (!competitorOf.has(domain)) competitorOf.set(domain, competitor.name);
  return { owned: new Set(domains), competitorOf };
}

/** The ownership marks of a project row (competitorDomains is stored as JSON). */
export const ownershipOf = (project: { domains: string[]; competitorDomains: unknown }) => domainOwnership(project.domains, project.competitorDomains as CompetitorDomains[]);

/** "Globex=globex.com,globex.de" (the CLI's --competitor, a settings line): a competitor's name and domains. */
export function parseCompetitorDomains(entry: string): CompetitorDomains {
  const separator = entry.indexOf('=');
  if (separator < 1) throw new UsageError(`a competitor's domains are written "Name=domain.com,other.com"; got ${JSON.stringify(entry.slice(0, 100))}`);
  return { name: entry.slice(0, separator).trim(), domains: entry.slice(separator + 1).split(',').map((domain) => domain.trim()).filter(Boolean) };
}
