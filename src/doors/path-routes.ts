// How every door routes within its prefix: a table of path → method → answer, where a path's
// segment `:name` is a parameter (any non-empty segment, decoded; a door may check its shape). A
// path not in the table is not this door's (null: the next door is asked, and the last one's
// answer is a 404); a method the path does not take is 405 with Allow; HEAD is taken where GET is.
// v1 matches its own table (rest/routes.ts) with the same matcher.
import { ApiError } from '../errors/index.js';
import { decodePath } from '../http/request-path.js';
import { getStandingFor, withoutBody } from '../http/responses.js';

export type PathParams = Record<string, string>;

export type PathHandler<Extra> = (request: Request, extra: Extra, params: PathParams) => Promise<Response>;

export type PathRoutes<Extra> = Record<string, Partial<Record<string, PathHandler<Extra>>>>;

/**
 * What a parameter's segment must be, as it came (not decoded), by name; a segment that is not is a path of no route
 * (404), as an id of the wrong shape names nothing.
 */
export type ParamChecks = Partial<Record<string, RegExp>>;

/** A template's segment: the text it must be, or a parameter (its name, and its check if any). */
type Segment = string | { name: string; check: RegExp | undefined };

/**
 * A matcher over path templates (`/reports/:id/data`), first match in table order. Segments are compared raw and a
 * match's parameters decoded afterwards, so an escaped `/` (%2F) cannot fake a separator and finding a path's
 * template reads no escape.
 */
export function pathMatcher<Value>(entries: readonly (readonly [string, Value])[], checks: ParamChecks = {}) {
  // Each template split once: a request compares segments, never re-splitting the table.
  const compiled = entries.map(([template, value]) => ({
    segments: template
      .split('/')
      .slice(1)
      .map((text): Segment => (text.startsWith(':') ? { name: text.slice(1), check: checks[text.slice(1)] } : text)),
    value,
  }));
  const find = (segments: readonly string[]) => compiled.find((entry) => fits(entry.segments, segments)) ?? null;
  return {
    /** The entry a path matches, its parameters unread. */
    find: (path: string): Value | null => find(path.split('/').slice(1))?.value ?? null,
    /** The entry a path matches and its parameters, decoded. */
    match(path: string): { value: Value; params: PathParams } | null {
      const segments = path.split('/').slice(1);
      const entry = find(segments);
      if (!entry) return null;
      const params: PathParams = {};
      entry.segments.forEach((expected, index) => {
        if (typeof expected !== 'string') params[expected.name] = decodePath(segments[index]!);
      });
      return { value: entry.value, params };
    },
  };
}

function fits(expected: readonly Segment[], actual: readonly string[]): boolean {
  if (expected.length !== actual.length) return false;
  for (let index = 0; index < actual.length; index++) {
    const segment = expected[index]!;
    const text = actual[index]!;
    const fitting =
      typeof segment === 'string' ? segment === text : text.length > 0 && (segment.check?.test(text) ?? true);
    if (!fitting) return false;
  }
  return true;
}

export function routeByPath<Extra>(routes: PathRoutes<Extra>, checks: ParamChecks = {}) {
  const { match } = pathMatcher(Object.entries(routes), checks);
  return async (request: Request, path: string, extra: Extra): Promise<Response | null> => {
    const found = match(path);
    if (!found) return null;
    const methods = found.value;
    // A path that takes GET takes HEAD (RFC 9110 §9.3.2): the GET's answer, headers and all, without its body.
    if (request.method === 'HEAD' && methods.GET && !methods.HEAD)
      return withoutBody(await methods.GET(getStandingFor(request), extra, found.params));
    const run = methods[request.method];
    if (!run)
      throw new ApiError('method_not_allowed', `${request.method} is not allowed here.`, {
        headers: { Allow: allowed(methods) },
      });
    return run(request, extra, found.params);
  };
}

const allowed = (methods: object) =>
  Object.keys(methods)
    .flatMap((method) => (method === 'GET' && !('HEAD' in methods) ? ['GET', 'HEAD'] : [method]))
    .join(', ');
