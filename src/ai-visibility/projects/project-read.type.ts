// A read of one project offered twice, alike: as a root field taking the project's id (what v1
// and the MCP tools run) and as a field of AiVisibilityProject (the graph's own). Both take the
// same arguments, cost the same and answer the same; the arguments are checked before the
// project is looked up, so a bad parameter is 400 whether or not the project exists.
import type { ArgBuilder, InputFieldMap, InputShapeFromFields, ObjectRef } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import type { ItemEnvelope } from '../../graphql/envelope.js';
import type { ProjectRow } from './project-repository.js';
import { ProjectType } from './project.type.js';

type Types = typeof builder.$inferSchemaTypes;

export interface ProjectRead<Args extends InputFieldMap, Shape> {
  /** The root field (aiVisibilitySources) and the project's field (sources). */
  root: string;
  field: string;
  description: string;
  /**
   * What the project's field holds, for its description: "This project's cited sources, as
   * aiVisibilitySources returns them."
   */
  what: string;
  type: ObjectRef<Types, Shape>;
  /** The root field's type where it wraps the answer as one item ({ data, meta: {} }); else `type`. */
  rootItemType?: ObjectRef<Types, ItemEnvelope<Shape>>;
  args: (arg: ArgBuilder<Types>) => Args;
  complexity?: (args: InputShapeFromFields<Args>) => number | { field?: number; multiplier?: number };
  /** Checks the arguments, then answers for a project. */
  read: (args: InputShapeFromFields<Args>, ctx: GraphQLContext) => (project: ProjectRow) => Promise<Shape>;
}

export function projectRead<Args extends InputFieldMap, Shape>(read: ProjectRead<Args, Shape>): void {
  const { root, field, description, what, type, rootItemType, args, complexity } = read;
  builder.queryField(root, (t) =>
    t.field({
      type: (rootItemType ?? type) as ObjectRef<Types, unknown>,
      description,
      authScopes: { scope: 'ai_visibility:read' },
      args: { id: t.arg({ type: 'ProjectId', required: true }), ...args(t.arg) },
      ...(complexity ? { complexity: complexity as never } : {}),
      resolve: async (_root, rootArgs, ctx) => {
        const { id, ...rest } = rootArgs as { id: string };
        const answer = read.read(rest as InputShapeFromFields<Args>, ctx);
        const data = await answer(await ctx.repositories.projects.find(id));
        return rootItemType ? { data, meta: {} } : data;
      },
    }),
  );
  builder.objectField(ProjectType, field, (t) =>
    t.field({
      type: type as ObjectRef<Types, unknown>,
      description: `This project's ${what}, as ${root} returns them.`,
      authScopes: { scope: 'ai_visibility:read' },
      extensions: GRAPH_ONLY,
      args: args(t.arg),
      ...(complexity ? { complexity: complexity as never } : {}),
      resolve: (project, fieldArgs, ctx) => read.read(fieldArgs as InputShapeFromFields<Args>, ctx)(project),
    }),
  );
}
