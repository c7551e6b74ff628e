// The status of a /graphql answer with errors beside its data: the caller's failures (a scope) leave
// it 200, a server's (a lost database) keep theirs. A lost database cannot be staged per field through
// the app, so the plugin is given the answers Yoga would give it.
import { GraphQLError, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { partialAnswersSucceed } from '../../src/doors/graphql-statuses.js';
import { ApiError } from '../../src/errors/index.js';

/** What the plugin makes of `result`: the result it sets, or `result` itself when it sets none. */
function processed(result: ExecutionResult): ExecutionResult {
  let set = result;
  const hook = partialAnswersSucceed.onResultProcess as (payload: object) => void;
  hook({ result, setResult: (next: ExecutionResult) => (set = next) });
  return set;
}

const located = (error: ApiError) =>
  new GraphQLError(error.message, { path: ['node'], originalError: error, extensions: error.extensions });
const statuses = (result: ExecutionResult) =>
  result.errors!.map((error) => (error.extensions.http as { status?: number } | undefined)?.status);

describe('an answer with data and errors', () => {
  it("drops the statuses of the caller's errors, keeping their codes and headers", () => {
    const scope = located(new ApiError('insufficient_scope', 'This API key lacks the clients:read scope.'));
    const limited = located(new ApiError('rate_limited', 'Later.', { headers: { 'Retry-After': '1' } }));
    const result = processed({ data: { viewer: {}, node: null }, errors: [scope, limited] });
    expect(statuses(result)).toEqual([undefined, undefined]);
    expect(result.errors!.map((error) => error.extensions.code)).toEqual(['insufficient_scope', 'rate_limited']);
    expect((result.errors![1]!.extensions.http as { headers: object }).headers).toEqual({ 'Retry-After': '1' });
    expect(result.errors![0]!.path).toEqual(['node']);
  });

  it('keeps every status when a server error is among them (a lost database is 503 beside data too)', () => {
    const lost = located(new ApiError('unavailable', 'The database is unavailable.'));
    const scope = located(new ApiError('insufficient_scope', 'No scope.'));
    const result = processed({ data: { node: null }, errors: [scope, lost] });
    expect(statuses(result)).toEqual([403, 503]);
  });

  it('leaves an answer without data as it is', () => {
    const result = processed({ data: null, errors: [located(new ApiError('forbidden', 'No.'))] });
    expect(statuses(result)).toEqual([403]);
  });
});
