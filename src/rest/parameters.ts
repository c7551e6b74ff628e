// Query and path parameters are validated from the GraphQL argument declarations of the
// route's field: the same enum or scalar that GraphQL coerces and OpenAPI documents.
import {
  getNamedType,
  isEnumType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
} from 'graphql';
import { invalidParameter } from '../errors/index.js';
import { checkedSearchParams } from '../http/text-input.js';

const MAX_SHOWN = 64;
const shown = (value: string) => JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value);

/**
 * A boolean in a query string: `true` or `false` in any case (Python's requests and generated clients write `True`),
 * nothing else (`yes`, `1`), at every door that takes one.
 */
export function queryBoolean(name: string, raw: string): boolean {
  const word = raw.toLowerCase();
  if (word !== 'true' && word !== 'false')
    throw invalidParameter(name, `${name} must be true or false; got ${shown(raw)}.`);
  return word === 'true';
}

/** Query strings carry text; GraphQL's Int and Boolean variables want numbers and booleans. */
function fromQueryText(typeName: string, name: string, raw: string): string | number | boolean {
  if (typeName === 'Int') {
    if (!/^-?\d{1,9}$/.test(raw)) throw invalidParameter(name, `${name} must be an integer; got ${shown(raw)}.`);
    return Number(raw);
  }
  return typeName === 'Boolean' ? queryBoolean(name, raw) : raw;
}

type ParameterValue = string | number | boolean;

/** How one argument's raw text is checked and typed; null for a type v1 does not take from text. */
function checkOf(arg: GraphQLArgument): ((raw: string) => ParameterValue) | null {
  const type = getNamedType(arg.type);
  if (isEnumType(type)) {
    const allowed = type.getValues().map((value) => value.name);
    return (raw) => {
      if (!allowed.includes(raw))
        throw invalidParameter(arg.name, `${arg.name} must be one of: ${allowed.join(', ')}; got ${shown(raw)}.`);
      return raw;
    };
  }
  if (!isScalarType(type)) return null;
  return (raw) => {
    const value = fromQueryText(type.name, arg.name, raw);
    try {
      type.parseValue(value);
    } catch (error) {
      throw invalidParameter(arg.name, `Invalid ${arg.name}: ${(error as Error).message}`);
    }
    return value;
  };
}

/**
 * No value: empty (`?limit=&model=`, how form-based tools send every unset field) or an importer's
 * unfilled placeholder (`<date>`, `<string>`, `<boolean>`: what Postman's default import writes
 * into each optional field the document gives no default, a date range or a filter having none).
 */
const NOT_GIVEN = /^(?:|<[A-Za-z-]+>)$/;

/**
 * The validator of a route's parameters, made once per route from its field's arguments (their
 * types looked up and enum values listed at start, not per request). It returns the validated
 * values of the arguments present in the request, typed as GraphQL variables. The query string's
 * text is checked first (http/text-input.ts) for the parameters the route takes; others are ignored.
 * A value that is no value (NOT_GIVEN) reads as the parameter left out (its default, or no filter).
 */
export function parameterValidator(
  field: GraphQLField<unknown, unknown>,
): (pathParams: Record<string, string>, search: string) => Record<string, ParameterValue> {
  const args = field.args.map((arg) => ({ name: arg.name, required: isNonNullType(arg.type), check: checkOf(arg) }));
  const taken = new Set(args.map((arg) => arg.name));
  const isTaken = (name: string) => taken.has(name);
  return (pathParams, search) => {
    const query = checkedSearchParams(search, isTaken);
    const values: Record<string, ParameterValue> = {};
    for (const { name, required, check } of args) {
      const fromQuery = query.getAll(name).filter((value) => !NOT_GIVEN.test(value));
      if (fromQuery.length > 1) throw invalidParameter(name, `${name} may be given only once.`);
      const raw = pathParams[name] ?? fromQuery[0];
      if (raw === undefined) {
        if (required) throw invalidParameter(name, `${name} is required.`);
        continue;
      }
      if (check) values[name] = check(raw);
    }
    return values;
  };
}
