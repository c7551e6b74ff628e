// Reading what a client accepts (RFC 9110 §12.4.2): each listed value with its weight, where
// `q=0` says "not acceptable", so a value named at q=0 is refused rather than found by a substring.

/** The weight each value of an Accept-style header gets (lower-cased, parameters other than q dropped). */
export function qualityValues(header: string | null): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name.trim()) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    // A value listed twice keeps its higher weight.
    const bounded = Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0;
    weights.set(name.trim(), Math.max(weights.get(name.trim()) ?? 0, bounded));
  }
  return weights;
}

/** A media type's weight in an Accept header: that of the most specific range that covers it. */
function mediaTypeWeight(weights: Map<string, number>, type: string): number {
  return weights.get(type) ?? weights.get(`${type.split('/')[0]}/*`) ?? weights.get('*/*') ?? 0;
}

/**
 * HTML over JSON: when the client names HTML (`text/html` or `text/*`) at a weight above zero and
 * above what JSON gets. A browser's navigation does (HTML at 1, any type at 0.8); any type alone
 * (curl, fetch), no header, or HTML and JSON at the same weight get JSON, the API's own format.
 */
export function prefersHtml(accept: string | null): boolean {
  const weights = qualityValues(accept);
  const html = weights.get('text/html') ?? weights.get('text/*') ?? 0;
  return html > 0 && html > mediaTypeWeight(weights, 'application/json');
}
