// The operations of a served OpenAPI document as an importing tool sees them: every path and
// method with its parameters ($refs resolved) and media types, and the concrete URLs a user can
// call, with path ids taken from the document's own list operations.

type Doc = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface Operation {
  template: string;
  method: string;
  operationId?: string;
  summary?: string;
  description?: string;
  parameters: Parameter[];
  /** The media types of the 200 answer. */
  mediaTypes: string[];
}

const resolve = (document: Doc, value: Doc): Doc => {
  if (typeof value.$ref !== 'string') return value;
  const target = value.$ref
    .slice(2)
    .split('/')
    .reduce((node: Doc, key: string) => node?.[key], document);
  if (!target) throw new Error(`unresolved ${value.$ref}`);
  return resolve(document, target);
};

export function operationsOf(document: Doc): Operation[] {
  return Object.entries(document.paths as Record<string, Doc>).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method))
      .map(([method, operation]: [string, Doc]) => ({
        template,
        method,
        operationId: operation.operationId,
        summary: operation.summary,
        description: operation.description,
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(
          (parameter: Doc) => resolve(document, parameter) as Parameter,
        ),
        mediaTypes: Object.keys(resolve(document, operation.responses?.['200'] ?? {}).content ?? {}),
      })),
  );
}

/** A data operation answers JSON; the others (CSV, NDJSON) are file exports. */
export const isDataOperation = (operation: Operation) => operation.mediaTypes.includes('application/json');

/**
 * The concrete paths of a template: the path ids come from the list at the path before them
 * (`/reports/{id}` takes the ids `/reports` lists). Every id of the first level, the first
 * id of each deeper one, so each report and project is visited once per operation.
 */
export async function concretePaths(template: string, listIds: (path: string) => Promise<string[]>): Promise<string[]> {
  let paths = [''];
  let depth = 0;
  for (const segment of template.split('/').slice(1)) {
    if (!/^\{\w+\}$/.test(segment)) {
      paths = paths.map((path) => `${path}/${segment}`);
      continue;
    }
    const next: string[] = [];
    for (const path of paths) {
      const ids = await listIds(path);
      if (ids.length === 0) throw new Error(`${path} lists no ids for ${template}`);
      next.push(...(depth === 0 ? ids : ids.slice(0, 1)).map((id) => `${path}/${encodeURIComponent(id)}`));
    }
    paths = next;
    depth++;
  }
  return paths;
}
