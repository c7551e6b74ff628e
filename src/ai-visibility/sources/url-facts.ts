// What reads and ingestion ask of a cited or read URL, parsed once: an ingest file repeats its URLs
// thousands of times, and its check, its domain, its normalised form and the per-scan totals each
// ask. Remembered by the URL's text; bounded by the characters held (the URLs and their normalised
// forms); full, it starts again.

export interface UrlFacts {
  protocol: string;
  /** As the URL parser writes it: lower-case, ASCII (IDNA). */
  hostname: string;
  /**
   * The URL compared between pages read and pages cited: the scheme and host lower-cased, the
   * fragment dropped, as the WHATWG URL parser writes it (which also drops a default port and
   * writes an empty path as "/").
   */
  normalised: string;
}

const REMEMBERED_CHARACTERS = 1_000_000;
const remembered = new Map<string, UrlFacts | null>();
let rememberedCharacters = 0;

/** The URL's facts, or null when it does not parse. */
export function urlFacts(url: string): UrlFacts | null {
  const known = remembered.get(url);
  if (known !== undefined) return known;
  let facts: UrlFacts | null = null;
  try {
    const parsed = new URL(url);
    const { protocol, hostname } = parsed;
    parsed.hash = '';
    facts = { protocol, hostname, normalised: parsed.href };
  } catch {
    // Not a URL: remembered as such.
  }
  // The normalised form counts too: percent-encoding makes it up to nine times the URL.
  const characters = url.length + (facts?.normalised.length ?? 0);
  if (rememberedCharacters + characters > REMEMBERED_CHARACTERS) {
    remembered.clear();
    rememberedCharacters = 0;
  }
  remembered.set(url, facts);
  rememberedCharacters += characters;
  return facts;
}
