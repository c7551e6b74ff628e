// Query and path parameters are validated from the GraphQL argument declarations of the
// route's field: the same enum or scalar that GraphQL coerces and OpenAPI documents.
import { getNamedType, isEnumType, isNonNullType, isScalarType, type GraphQLField } from 'graphql';
import { invalidParameter } from '../errors/index.js';

const MAX_SHOWN = 64;
const shown = (value: string) => JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value);

/** Query strings carry text; GraphQL's Int and Boolean variables want numbers and booleans. */
function fromQueryText(typeName: string, name: string, raw: string): string | number | boolean {
  if (typeName === 'Int') {
    if (!/^-?\d{1,9}$/.test(raw)) throw invalidParameter(name, `${name} must be an integer; got ${shown(raw)}.`);
    return Number(raw);
  }
  if (typeName === 'Boolean') {
    if (raw !== 'true' && raw !== 'false') throw invalidParameter(name, `${name} must be true or false; got ${shown(raw)}.`);
    return raw === 'true';
  }
  return raw;
}

/** Returns the validated values of the field's arguments present in the request, typed as GraphQL variables. */
export function validateParameters(
  field: GraphQLField<unknown, unknown>,
  pathParams: Record<string, string>,
  query: URLSearchParams,
): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const arg of field.args) {
    const fromPath = pathParams[arg.name];
    const fromQuery = query.getAll(arg.name);
    if (fromQuery.length > 1) throw invalidParameter(arg.name, `${arg.name} may be given only once.`);
    const raw = fromPath ?? fromQuery[0];
    if (raw === undefined) {
      if (isNonNullType(arg.type)) throw invalidParameter(arg.name, `${arg.name} is required.`);
      continue;
    }
    const type = getNamedType(arg.type);
    if (isEnumType(type)) {
      const allowed = type.getValues().map((value) => value.name);
      if (!allowed.includes(raw)) throw invalidParameter(arg.name, `${arg.name} must be one of: ${allowed.join(', ')}; got ${shown(raw)}.`);
      values[arg.name] = raw;
    } else if (isScalarType(type)) {
      const value = fromQueryText(type.name, arg.name, raw);
      try {
        type.parseValue(value);
      } catch (error) {
        throw invalidParameter(arg.name, `Invalid ${arg.name}: ${(error as Error).message}`);
      }
      values[arg.name] = value;
    }
  }
  return values;
}
