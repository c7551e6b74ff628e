// Bodies of the web app's POSTs: HTML forms (urlencoded) or JSON objects, small and flat.
import { ApiError } from '../errors/index.js';
import { BODY_LIMITS, readBodyText } from './body.js';
import { checkedSearchParams, findTextProblem, TEXT_RULE } from './text-input.js';
import { invalidParameter } from '../errors/index.js';

export type FormFields = Record<string, string | string[] | boolean | number | null>;

export async function readForm(request: Request): Promise<{ fields: FormFields; json: boolean }> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const text = await readBodyText(request, BODY_LIMITS.form);
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new ApiError('invalid_body', 'The body is not valid JSON.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new ApiError('invalid_body', 'The body must be a JSON object.');
    const refused = findTextProblem(parsed, '');
    if (refused) throw invalidParameter(refused.path, `${refused.path} ${refused.problem}; ${TEXT_RULE}.`);
    return { fields: parsed as FormFields, json: true };
  }
  if (type.startsWith('application/x-www-form-urlencoded') || !type) {
    const params = checkedSearchParams(text);
    const fields: FormFields = {};
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      fields[key] = all.length > 1 ? all : all[0]!;
    }
    return { fields, json: false };
  }
  throw new ApiError('invalid_body', 'Send application/json or an HTML form (application/x-www-form-urlencoded).');
}

/** A text field, trimmed; absent or blank is null. Arrays and objects are refused. */
export function textField(
  fields: FormFields,
  name: string,
  options: { required?: boolean; max?: number } = {},
): string | null {
  const value = fields[name];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    if (options.required) throw new ApiError('invalid_parameter', `${name} is required.`, { param: name });
    return null;
  }
  if (typeof value !== 'string') throw new ApiError('invalid_parameter', `${name} must be text.`, { param: name });
  if (value.length > (options.max ?? 2000))
    throw new ApiError('invalid_parameter', `${name} is too long.`, { param: name });
  return value.trim();
}

/** A list given as a JSON array, repeated form fields, or one comma-separated value. */
export function listField(fields: FormFields, name: string): string[] | null {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return null;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  throw new ApiError('invalid_parameter', `${name} must be a list.`, { param: name });
}

export function booleanField(fields: FormFields, name: string): boolean {
  const value = fields[name];
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'on' || value === '1') return true;
  if (value === undefined || value === null || value === 'false' || value === '0' || value === '') return false;
  throw new ApiError('invalid_parameter', `${name} must be true or false.`, { param: name });
}
