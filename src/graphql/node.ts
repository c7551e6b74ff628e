// Object identification: Node, node(id) and nodes(ids). Ids carry their type in their prefix
// (cli_, rep_, prj_, scn_, sig_), so an id alone says which loader to ask. Each feature
// registers its node kinds from its type module; an id of another workspace, an unknown
// prefix or a malformed id all come back as null, like an id that never existed.
import { READ_SCOPE, requireScope, type ReadableKind } from '../auth/index.js';
import { isIdOf, type IdKind } from '../db/ids.js';
import { ApiError } from '../errors/index.js';
import { builder } from './builder.js';
import { GRAPH_ONLY } from './graph-only.js';
import { sizedList } from './cost.js';
import type { GraphQLContext } from './context.js';

export interface NodeShape {
  id: string;
}

interface NodeKind {
  typeName: string;
  load(ctx: GraphQLContext, id: string): Promise<NodeShape | null>;
}

const nodeKinds = new Map<IdKind & ReadableKind, NodeKind>();

/** A kind `node(id)` can answer; the scope it needs to be read is the one table's (`READ_SCOPE`). */
export function registerNodeKind(kind: IdKind & ReadableKind, nodeKind: NodeKind): void {
  nodeKinds.set(kind, nodeKind);
}

const kindOf = (id: string) => [...nodeKinds.keys()].find((kind) => isIdOf(kind, id));

export const NodeInterface = builder.interfaceRef<NodeShape>('Node').implement({
  description: 'An object with a globally unique id; its prefix names its type.',
  fields: (t) => ({ id: t.exposeID('id') }),
  resolveType: (node) => nodeKinds.get(kindOf(node.id)!)!.typeName,
});

async function loadNode(ctx: GraphQLContext, id: string): Promise<NodeShape | null> {
  const kind = kindOf(id);
  if (!kind) return null;
  const nodeKind = nodeKinds.get(kind)!;
  requireScope(ctx.principal, READ_SCOPE[kind], { reading: id.slice(0, 64) });
  return nodeKind.load(ctx, id);
}

export const MAX_NODES = 100;
const ID_EXAMPLES = 'cli_…, rep_…, prj_…, scn_…, sig_…';

builder.queryFields((t) => ({
  node: t.field({
    type: NodeInterface,
    nullable: true,
    extensions: GRAPH_ONLY,
    description: `Any object by its id (${ID_EXAMPLES}); null when this workspace has none.`,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => loadNode(ctx, String(args.id)),
  }),
  nodes: t.field({
    type: [NodeInterface],
    nullable: { list: false, items: true },
    extensions: GRAPH_ONLY,
    description: `Objects by id, in the order asked (at most ${MAX_NODES}); null where this workspace has none.`,
    args: { ids: t.arg.idList({ required: true }) },
    complexity: (args) => sizedList(args.ids.length, 0, MAX_NODES),
    resolve: (_root, args, ctx) => {
      if (args.ids.length > MAX_NODES)
        throw new ApiError('invalid_parameter', `nodes takes at most ${MAX_NODES} ids.`, { param: 'ids' });
      return Promise.all(args.ids.map((id) => loadNode(ctx, String(id))));
    },
  }),
}));
