// An integer argument with bounds, declared once. The GraphQL argument carries its default
// (`defaultValue`) and its bounds (`extensions.bounds`: what the OpenAPI document states as
// minimum, maximum and default), and the resolver checks the value with `withinBounds` against
// the same IntBounds object, so what a client is told and what the server accepts cannot drift.
import type { ArgBuilder } from '@pothos/core';
import type { IntBounds } from '../errors/index.js';
import type { builder } from './builder.js';
import { sizedList } from './cost.js';

/** The bounds a GraphQL argument declares, or undefined (read by the OpenAPI document and tests). */
export const boundsOf = (extensions: Readonly<Record<string, unknown>> | null | undefined): IntBounds | undefined =>
  extensions?.bounds as IntBounds | undefined;

/**
 * The cost of a list sized by a bounded argument: the value asked, or the declared default (times `per`, e.g.
 * locales).
 */
export const boundedListCost = (value: number | null | undefined, bounds: IntBounds, per = 1) =>
  sizedList(value, bounds.default, bounds.maximum, per);

/**
 * An optional Int argument taking its default from `bounds`; `description` says what it counts ("Answers per page").
 */
export const boundedIntArg = (
  arg: ArgBuilder<typeof builder.$inferSchemaTypes>,
  bounds: IntBounds,
  description: string,
) =>
  arg.int({
    required: false,
    defaultValue: bounds.default,
    description: `${description}, ${bounds.minimum}–${bounds.maximum} (default ${bounds.default}).`,
    extensions: { bounds },
  });
