// Marks a field that belongs to the web app's graph and not to v1: relations between
// resources, node(id), viewer. SOFA builds a v1 route's selection (and its OpenAPI schema)
// from every field of its types, so v1 runs on the schema without these fields
// (rest/v1-schema.ts) and keeps its exact shape.
export const GRAPH_ONLY = { graphOnly: true } as const;

export const isGraphOnly = (extensions: Readonly<Record<string, unknown>> | null | undefined) =>
  extensions?.graphOnly === true;
