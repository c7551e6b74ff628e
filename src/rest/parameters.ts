// Query and path parameters are validated from the GraphQL argument declarations of the
// route's field: the same enum or scalar that GraphQL coerces and OpenAPI documents.
import { getNamedType, isEnumType, isNonNullType, isScalarType, type GraphQLField } from 'graphql';
import { invalidParameter } from '../errors/index.js';

const MAX_SHOWN = 64;
const shown = (value: string) => JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value);

/** Returns the validated raw values (as strings) of the field's arguments present in the request. */
export function validateParameters(
  field: GraphQLField<unknown, unknown>,
  pathParams: Record<string, string>,
  query: URLSearchParams,
): Record<string, string> {
  const values: Record<string, string> = {};
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
    } else if (isScalarType(type)) {
      try {
        type.parseValue(raw);
      } catch (error) {
        throw invalidParameter(arg.name, `Invalid ${arg.name}: ${(error as Error).message}`);
      }
    }
    values[arg.name] = raw;
  }
  return values;
}
