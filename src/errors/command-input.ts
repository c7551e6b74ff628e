// An admin command's input is declared once, as a zod shape beside the command in the feature
// that owns it, and every door parses with that shape: the settings actions, the CLI and the
// MCP write tools (whose tools/list schema is the same shape). A door only turns its own format
// (form fields, command-line options) into the command's input before the parse.
import { z } from 'zod/v4';
import { invalidParameter, UsageError } from './index.js';

export type CommandInput<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

/** `value` parsed with a command's input shape; the first problem is a 400 invalid_parameter naming its field. */
export function commandInput<Shape extends z.ZodRawShape>(shape: Shape, value: unknown): CommandInput<Shape> {
  return parsedInput(z.object(shape), value);
}

/** `value` parsed with a command's whole input schema (a door's stricter object of the shape), refused alike. */
export function parsedInput<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = issue.path.map(String).join('.') || 'input';
  throw invalidParameter(param, `${param}: ${issue.message}.`);
}

/** `value` under one rule of an input shape, for a command whose caller skipped the parse (a usage error). */
export function underRule<T>(rule: z.ZodType<T>, value: unknown): T {
  const checked = rule.safeParse(value);
  if (!checked.success) throw new UsageError(checked.error.issues[0]!.message);
  return checked.data;
}
