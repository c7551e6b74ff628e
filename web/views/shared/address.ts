// A web page's view lives in its address: what it shows (a preset, a comparison, a locale, a
// prompt, a page) is the query string, so that the page can be bookmarked, reloaded and sent as
// it is. Only on the web app's pages: an MCP App's frame has no address of its own to keep.
import type { Args } from './host.js';

/** The query string of a view's arguments, less those the page's path already names (its id). */
export function queryOf(args: Args, fixed: Args): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (key in fixed || value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The arguments a query string holds: a key given once is a string, given again a list. */
export function argsOfQuery(search: string): Args {
  const query = new URLSearchParams(search);
  return Object.fromEntries([...new Set(query.keys())].map((key) => {
    const values = query.getAll(key);
    return [key, values.length === 1 ? values[0] : values];
  }));
}

/** Whether two views' arguments are the same, but for the keys the view keeps to itself. */
export function sameData(a: Args, b: Args, local: readonly string[]): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((key) => !local.includes(key)));
  return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** The arguments its tool (or operation) reads: without the view's own. */
export function dataArgs<A extends Args>(args: A, local: readonly string[]): Args {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !local.includes(key)));
}
