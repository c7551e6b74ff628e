// The API's own documents under /api/v1: the OpenAPI and Swagger documents (per origin, cached
// five minutes), the reference page (Scalar) and its files. Public: no key is asked for.
import type { GraphQLSchema } from 'graphql';
import { ApiError } from '../errors/index.js';
import { pageSecurityHeaders } from '../http/html.js';
import { heldTag, notModified, representation } from '../http/representation.js';
import { errorResponse, JSON_CONTENT_TYPE, Response } from '../http/responses.js';
import { createApiDocuments, type ApiDocumentKind } from './api-documents.js';
import { API_REFERENCE_PAGE_POLICY, apiReferencePage, docsAsset } from './docs.js';
import { BASE_PATH } from './v1-schema.js';

const DOCUMENTS: Record<string, ApiDocumentKind> = { '/openapi.json': 'openapi', '/swagger.json': 'swagger' };

/** The answer for a path of the API's documents, or null for any other path under the prefix. */
export function createReferenceRoutes(schema: GraphQLSchema, originOf: (request: Request) => string) {
  const documents = createApiDocuments(schema);
  return async (request: Request, subPath: string, requestId: string): Promise<Response | null> => {
    const documentKind = DOCUMENTS[subPath];
    if (documentKind) {
      const caching = { 'Cache-Control': 'public, max-age=300' };
      const document = await documents.body(documentKind, originOf(request));
      const held = heldTag(request, document.etag);
      if (held) return notModified(held, caching);
      return representation(request, document, { ...caching, 'Content-Type': JSON_CONTENT_TYPE });
    }
    if (subPath === '/docs') {
      // No cache: the page names the bundle's current hash.
      const page = await apiReferencePage(`${BASE_PATH}/openapi.json`);
      const pageHeaders = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' };
      return new Response(page, { headers: { ...pageHeaders, ...pageSecurityHeaders(API_REFERENCE_PAGE_POLICY) } });
    }
    if (!subPath.startsWith('/docs/')) return null;
    const asset = await docsAsset(request, subPath.slice('/docs/'.length));
    return asset ?? errorResponse(new ApiError('not_found', 'No such file of the API reference.'), requestId);
  };
}
