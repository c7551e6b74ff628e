import { GraphQLError } from 'graphql';
import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { builder } from './builder.js';
import { civilDateProblem } from '../dates/civil-date.js';
import { isoInstant } from '../dates/instant.js';
import { idPattern, isIdOf, type IdKind } from '../db/ids.js';
import { SCOPES, type Scope } from '../auth/index.js';

// graphql-scalars' DateTime hands Date objects on to JSON.stringify, whose toJSON is the slowest
// way to print them (see dates/instant.ts); ours serialises to the same string itself. Reading
// (parseValue, parseLiteral) stays theirs.
builder.addScalarType('DateTime', DateTimeResolver, {
  serialize: (value) => {
    const date = value instanceof Date ? value : DateTimeResolver.serialize(value);
    if (!(date instanceof Date) || Number.isNaN(date.getTime()))
      throw new GraphQLError('DateTime cannot represent an invalid date.');
    return isoInstant(date);
  },
});
builder.addScalarType('JSONObject', JSONObjectResolver);

const expectString = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new GraphQLError(`Expected ${what} as a string.`);
  return value;
};

builder.scalarType('Date', {
  description: 'A calendar date, YYYY-MM-DD, from 0001-01-01 to 9999-12-31.',
  serialize: (value) => value,
  parseValue: (value) => {
    const date = expectString(value, 'a date');
    const problem = civilDateProblem(date);
    if (problem) throw new GraphQLError(`${JSON.stringify(date.slice(0, 64))} ${problem}.`);
    return date;
  },
});

/** Custom scalars for ids, so a malformed id is refused while parsing arguments. */
export const ID_SCALARS = {
  ClientId: 'client',
  ReportId: 'report',
  ProjectId: 'project',
  PromptId: 'prompt',
  AnswerId: 'answer',
} as const satisfies Record<string, IdKind>;

for (const [name, kind] of Object.entries(ID_SCALARS)) {
  // "an answer id": the kinds' spelling decides their article.
  const anId = `${/^[aeio]/.test(kind) ? 'an' : 'a'} ${kind} id`;
  builder.scalarType(name as keyof typeof ID_SCALARS, {
    description: `${anId[0]!.toUpperCase()}${anId.slice(1)}, matching ${idPattern(kind)}.`,
    serialize: (value) => value,
    parseValue: (value) => {
      const id = expectString(value, anId);
      if (!isIdOf(kind, id))
        throw new GraphQLError(`"${id.slice(0, 64)}" is not ${anId} (expected ${idPattern(kind)}).`);
      return id;
    },
  });
}

// A scope is spelled the same on every door (v1 errors, key creation, MCP consent, settings): an
// enum could not carry the colon, so GraphQL shows the same string as a checked scalar.
builder.scalarType('Scope', {
  description: `An API scope as written everywhere: ${SCOPES.join(', ')}.`,
  serialize: (value) => value,
  parseValue: (value) => {
    const scope = expectString(value, 'a scope');
    if (!SCOPES.includes(scope as Scope))
      throw new GraphQLError(`"${scope.slice(0, 64)}" is not a scope (${SCOPES.join(', ')}).`);
    return scope as Scope;
  },
});
