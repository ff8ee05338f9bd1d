import type { SimResponse } from '../transport.ts';
import { generateApiDeclaration, generateResourceListing, isResourceName } from '@ringflow/client';

/** Options of the published documents. */
export interface ApiDocsOptions {
  /** Absolute URL of the interface root, e.g. `http://127.0.0.1:8088/ari`. */
  readonly basePath: string;
  readonly apiVersion?: string;
}

/**
 * Answers a request for the Swagger documents, `path` being below the interface root:
 * `/api-docs/resources.json` (the listing) and `/api-docs/{resource}.json` (one declaration);
 * anything else under `/api-docs/` is 404 `Resource not found`, and any method but GET 405
 * `Unsupported method`, as on the real server.
 *
 * @example
 * apiDocsResponse('GET', '/api-docs/channels.json', { basePath: 'http://127.0.0.1:8088/ari' }).status; // 200
 */
export function apiDocsResponse(method: string, path: string, options: ApiDocsOptions): SimResponse {
  // res_ari.c refuses every other method (OPTIONS and HEAD too) before it looks for the document.
  if (method !== 'GET') return { status: 405, body: { message: 'Unsupported method' } };
  const name = /^\/api-docs\/([A-Za-z]+)\.json$/.exec(path)?.[1];
  if (name === undefined || (name !== 'resources' && !isResourceName(name))) {
    return { status: 404, body: { message: 'Resource not found' } };
  }
  const docOptions = {
    basePath: options.basePath,
    ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
  };
  if (isResourceName(name)) return { status: 200, body: generateApiDeclaration(name, docOptions) };
  return { status: 200, body: generateResourceListing(docOptions) };
}
