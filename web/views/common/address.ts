// A web page's view lives in its address: what it shows (a preset, a comparison, a locale, a
// prompt, a page) is the query string, so that the page can be bookmarked, reloaded and sent as
// it is. Only on the web app's pages: an MCP App's frame has no address of its own to keep. An
// address may ask for what cannot be shown (a preset that does not exist, a range wider than the
// read allows): what the server refuses is left out, and the page says so.
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
  return Object.fromEntries(
    [...new Set(query.keys())].map((key) => {
      const values = query.getAll(key);
      return [key, values.length === 1 ? values[0] : values];
    }),
  );
}

/** Whether two views' arguments are the same, but for the keys the view keeps to itself. */
export function sameData(a: Args, b: Args, local: readonly string[]): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((key) => !local.includes(key)));
  return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** The arguments of `a` that `b` has not, or has with another value. */
export const differing = (a: Args, b: Args): Args =>
  Object.fromEntries(Object.entries(a).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(b[key])));

/** The arguments its tool (or operation) reads: without the view's own. */
export function dataArgs<A extends Args>(args: A, local: readonly string[]): Args {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !local.includes(key)));
}

/** Arguments that mean something only together: a range's two ends. */
const TOGETHER = [['dateFrom', 'dateTo']];

export interface Refused {
  /** The arguments to read instead. */
  args: Args;
  /** Those left out, as they were asked. */
  dropped: Args;
}

/**
 * The arguments to show instead of those the server refused, with the ones left out: those the
 * refusal named (and the other end of a range), or, when it named none of them, all but `kept`
 * (the page's own, its id, and those the server never reads).
 */
export function withoutRefused(args: Args, refused: readonly string[], kept: readonly string[]): Refused {
  const named = new Set(refused.filter((key) => args[key] !== undefined && !kept.includes(key)));
  for (const group of TOGETHER) if (group.some((key) => named.has(key))) group.forEach((key) => named.add(key));
  const dropped = (key: string) => !kept.includes(key) && (named.size === 0 || named.has(key));
  const entries = Object.entries(args).filter(([, value]) => value !== undefined);
  return {
    args: Object.fromEntries(entries.filter(([key]) => !dropped(key))),
    dropped: Object.fromEntries(entries.filter(([key]) => dropped(key))),
  };
}

type GraphQLError = { message: string; extensions?: Record<string, unknown> };

/** The arguments a GraphQL answer's errors refuse: an error's `param`, or the variable it could not read. */
export function refusedArguments(errors: readonly GraphQLError[]): string[] {
  return errors.flatMap((error) => {
    const param = error.extensions?.param;
    if (typeof param === 'string') return [param];
    const variable = /^Variable "\$(\w+)"/.exec(error.message)?.[1];
    return variable ? [variable] : [];
  });
}
