// The two documents of v1, /api/v1/openapi.json (3.1) and /api/v1/swagger.json (2.0). Both name
// the origin they are served at (an importer sends its requests there), so each origin gets its
// own finished body and ETag, kept in a small LRU: origins other than PUBLIC_BASE_URL's exist only
// in development (localhost, 127.0.0.1, a tunnel), and a flood of Host headers evicts, never grows.
// The origin-independent document is built once, on the first request: SOFA and what it loads
// (about a fifth of the idle heap) serve nothing else, and most instances are never asked.
import type { GraphQLSchema } from 'graphql';
import type { OpenApiDocument } from './openapi-document.js';
import { LRUCache } from 'lru-cache';
import { jsonBody, keptBody, type FinishedBody } from '../http/representation.js';

export type ApiDocumentKind = 'openapi' | 'swagger';

/** Origins whose documents are kept at once. */
export const DOCUMENT_ORIGINS_KEPT = 16;

export function createApiDocuments(schema: GraphQLSchema) {
  let base: Promise<{
    document: OpenApiDocument;
    forOrigin: typeof import('./openapi.js').forOrigin;
    toSwagger2: typeof import('./swagger.js').toSwagger2;
  }> | null = null;
  const load = () =>
    (base ??= Promise.all([import('./sofa.js'), import('./openapi.js'), import('./swagger.js')]).then(
      ([sofa, openapi, swagger]) => ({
        document: sofa.v1OpenApiDocument(schema),
        forOrigin: openapi.forOrigin,
        toSwagger2: swagger.toSwagger2,
      }),
    ));
  const bodies = new LRUCache<string, Promise<FinishedBody>>({ max: DOCUMENT_ORIGINS_KEPT * 2 });
  return {
    /** The finished body of a document as served at `origin`. */
    body(kind: ApiDocumentKind, origin: string): Promise<FinishedBody> {
      const key = `${kind} ${origin}`;
      let body = bodies.get(key);
      if (!body) {
        body = load().then(({ document, forOrigin, toSwagger2 }) => {
          const served = forOrigin(document, origin);
          return keptBody(jsonBody(kind === 'openapi' ? served : toSwagger2(served, origin)));
        });
        bodies.set(key, body);
        body.catch(() => bodies.delete(key));
      }
      return body;
    },
  };
}
