// The parameters of a v1 operation, written from the GraphQL arguments of its field: the same
// declarations the server validates with (rest/parameters.ts) and GraphQL coerces. Every rule a
// form-based importer needs is in the schema, not only in prose: enums, integer bounds and
// defaults (the argument's `extensions.bounds` and GraphQL `defaultValue`), patterns of ids, and
// an example the server accepts, so a tool that fills each field with its example or default
// sends a valid request.
import {
  getNamedType,
  isEnumType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
} from 'graphql';
import { idPrefixes, idPattern } from '../db/ids.js';
import { ID_SCALARS } from '../graphql/scalars.js';
import { routeArguments, type RestRoute } from './routes.js';

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/** What an integer argument declares of its range: `extensions.bounds` on the GraphQL argument. */
export interface ArgumentBounds {
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** GPT Actions refuse longer texts: an operation's summary and description, and a parameter's description. */
export const OPERATION_TEXT_MAX = 300;
export const PARAMETER_TEXT_MAX = 700;

/** A real-looking id body (20 base62 characters), the same for every kind. */
const ID_EXAMPLE_BODY = '7Hq2LmX9pT4vR8nK3wYz';
export const exampleId = (kind: keyof typeof idPrefixes) => `${idPrefixes[kind]}_${ID_EXAMPLE_BODY}`;

/** Where a caller finds each kind of id: the operation that lists it. */
const LISTED_BY: Record<keyof typeof ID_SCALARS, string> = {
  ClientId: 'listClients',
  ReportId: 'listReports',
  ProjectId: 'listAiVisibilityProjects',
  PromptId: 'listAiVisibilityPrompts',
  AnswerId: 'listAiVisibilityAnswers',
};
export const LISTING_OPERATIONS: readonly string[] = Object.values(LISTED_BY);

/**
 * Examples of text and date arguments by name: values the server accepts (a well-formed locale,
 * a domain, a topic and tag of the demo data, a date range in order). Only a previous page's
 * cursor is valid, so its example is empty, which reads as absent: the first page. (Postman's
 * "Example" parameter generation sends each example; without one it would send a made-up text.)
 */
const TEXT_EXAMPLES: Record<string, string> = {
  cursor: '',
  dateFrom: '2026-11-01',
  dateTo: '2026-11-07',
  locale: 'en-US',
  domain: 'reddit.com',
  topic: 'comparisons',
  tag: 'mid-funnel',
};

/** Rules between parameters, said beside each one they bind. */
const CROSS_PARAMETER_RULES: Record<string, string> = {
  dateFrom: 'Must not be after dateTo.',
  dateTo: 'Must not be before dateFrom.',
};

const boundsOf = (arg: GraphQLArgument): ArgumentBounds =>
  (arg.extensions as { bounds?: ArgumentBounds } | undefined)?.bounds ?? {};

/** The external value of an argument's GraphQL default (an enum's name, not its internal value). */
function defaultOf(arg: GraphQLArgument): unknown {
  if (arg.defaultValue === undefined || arg.defaultValue === null) return boundsOf(arg).default;
  const type = getNamedType(arg.type);
  if (isEnumType(type))
    return type.getValues().find((value) => value.value === arg.defaultValue)?.name ?? arg.defaultValue;
  return arg.defaultValue;
}

function schemaOf(arg: GraphQLArgument): JsonSchema {
  const type = getNamedType(arg.type);
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.name) };
  if (!isScalarType(type)) throw new Error(`v1 parameter ${arg.name}: ${type.name} is not taken from a query string`);
  const idKind = ID_SCALARS[type.name as keyof typeof ID_SCALARS];
  if (idKind) return { type: 'string', pattern: idPattern(idKind) };
  switch (type.name) {
    case 'Int': {
      const { minimum, maximum } = boundsOf(arg);
      return {
        type: 'integer',
        ...(minimum !== undefined ? { minimum } : {}),
        ...(maximum !== undefined ? { maximum } : {}),
      };
    }
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'Date':
      return { type: 'string', format: 'date' };
    default: {
      // A text argument may declare its form (`locale`: a BCP 47 pattern and length) on its extensions.
      const { pattern, maxLength } = (arg.extensions ?? {}) as { pattern?: string; maxLength?: number };
      return { type: 'string', ...(pattern ? { pattern } : {}), ...(maxLength ? { maxLength } : {}) };
    }
  }
}

function exampleOf(arg: GraphQLArgument, schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  const idKind = ID_SCALARS[getNamedType(arg.type).name as keyof typeof ID_SCALARS];
  if (idKind) return exampleId(idKind);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'integer') return schema.minimum;
  if (schema.type === 'boolean') return true;
  return TEXT_EXAMPLES[arg.name];
}

function descriptionOf(arg: GraphQLArgument): string {
  const idScalar = getNamedType(arg.type).name as keyof typeof ID_SCALARS;
  const parts = [arg.description ?? ''];
  if (LISTED_BY[idScalar]) parts.push(`The \`id\` of an item from ${LISTED_BY[idScalar]}.`);
  const rule = CROSS_PARAMETER_RULES[arg.name];
  if (rule && !parts[0]!.includes(rule)) parts.push(rule);
  return parts.filter(Boolean).join(' ');
}

/** The parameters of a route: its path's, in path order, then its field's other arguments in their declared order. */
export function routeParameters(route: RestRoute, field: GraphQLField<unknown, unknown>): OpenApiParameter[] {
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const args = routeArguments(route, field);
  const ordered = [
    ...inPath.map((name) => args.find((arg) => arg.name === name)!),
    ...args.filter((arg) => !inPath.includes(arg.name)),
  ];
  return ordered.map((arg) => {
    const path = inPath.includes(arg.name);
    const schema = schemaOf(arg);
    const fallback = defaultOf(arg);
    if (fallback !== undefined) schema.default = fallback;
    // On the schema (3.1's `examples`), not the parameter: the n8n node generator sends a parameter's
    // `example` as the field's value, filtering every answer; Postman's Example mode reads either.
    const example = exampleOf(arg, schema);
    if (example !== undefined) schema.examples = [example];
    return {
      name: arg.name,
      in: path ? 'path' : 'query',
      required: path || isNonNullType(arg.type),
      description: descriptionOf(arg),
      schema,
    };
  });
}
