// How a write tool is declared: a zod input (its JSON Schema, said tersely, is what tools/list
// shows), the keys its result holds, and a run that gets the parsed arguments. The tools
// themselves live beside this file, one file per toolset.
import { z } from 'zod/v4';
import type pg from 'pg';
import type { Principal } from '../../../auth/index.js';
import type { PrismaClient } from '../../../db/generated/prisma/client.js';
import { parsedInput } from '../../../errors/command-input.js';
import type { WebhookDeps } from '../../../webhooks/index.js';
import type { JsonSchema } from '../operation-schemas.js';
import type { Toolset } from '../toolsets.js';

export interface WriteDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** The webhook endpoints' dependencies (secret box, target policy). */
  webhooks: WebhookDeps;
  principal: Extract<Principal, { kind: 'oauth' }>;
}

export interface WriteTool {
  write: true;
  name: string;
  /** The toolset it belongs to, declared with the tool. */
  toolset: Toolset;
  title: string;
  description: string;
  /** May overwrite or remove what is there (anything but a purely additive change). */
  destructive: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotent: boolean;
  /** Calls the customer's own endpoints (webhook deliveries). */
  openWorld: boolean;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(deps: WriteDeps, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/**
 * zod's JSON Schema said tersely, as the read tools' are (every tools/list pays for each token):
 * nullable as a type list, no safe-integer bounds zod adds to every int, no
 * `additionalProperties: false` (unknown arguments are refused when the tool runs).
 */
function terseSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(terseSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const variants = node.anyOf as Record<string, unknown>[] | undefined;
  if (variants?.length === 2 && variants.some((variant) => variant.type === 'null')) {
    const other = variants.find((variant) => variant.type !== 'null')!;
    if (typeof other.type === 'string') {
      const rest = { ...node };
      delete rest.anyOf;
      return terseSchema({ ...rest, ...other, type: [other.type, 'null'] });
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).map(([name, property]) => [name, terseSchema(property)]),
          )
        : terseSchema(value);
  }
  return out;
}

/** Parts of an input advertised as one line of prose instead of their JSON Schema (zod still checks every field). */
const IN_PROSE = new WeakMap<object, string>();

export function inProse<Schema extends z.ZodType>(schema: Schema, prose: string): Schema {
  IN_PROSE.set(schema, prose);
  return schema;
}

/** What a result holds: its top-level keys and their JSON types. */
export type ResultShape = Record<string, 'object' | 'array'>;

/**
 * The output schema says a result's keys and their types, and no more (no `required`, as the
 * read tools' say none): the objects are self-describing in structuredContent, and every
 * tools/list pays for each token (docs/mcp.md, context budget).
 */
const outputSchemaOf = (shape: ResultShape): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(shape).map(([key, type]) => [key, { type }])),
});

export function declare<Shape extends z.ZodRawShape>(
  tool: Pick<WriteTool, 'name' | 'toolset' | 'title' | 'description' | 'destructive' | 'idempotent'> & {
    openWorld?: boolean;
    input: Shape;
    output: ResultShape;
    run(deps: WriteDeps, args: z.infer<z.ZodObject<Shape>>): Promise<Record<string, unknown>>;
  },
): WriteTool {
  const schema = z.object(tool.input).strict();
  const advertised = z.toJSONSchema(schema, {
    override: ({ zodSchema, jsonSchema }) => {
      const prose = IN_PROSE.get(zodSchema);
      if (prose === undefined) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
      Object.assign(jsonSchema, { type: 'object', description: prose });
    },
  });
  const inputSchema = { ...(terseSchema(advertised) as JsonSchema) };
  delete inputSchema.$schema;
  const { name, toolset, title, description, destructive, idempotent } = tool;
  return {
    write: true,
    name,
    toolset,
    title,
    description,
    destructive,
    idempotent,
    openWorld: tool.openWorld ?? false,
    inputSchema,
    outputSchema: outputSchemaOf(tool.output),
    // Refused as settings and the CLI refuse the same input: the first problem, its field named.
    run: async (deps, args) => tool.run(deps, parsedInput(schema, args)),
  };
}

export const actorOf = (deps: WriteDeps) => ({
  email: deps.principal.email,
  workspaceId: deps.principal.workspaceId,
  userId: deps.principal.userId,
  via: deps.principal.clientName,
});
