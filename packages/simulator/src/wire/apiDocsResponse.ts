import type { SimResponse } from '../transport.ts';
import {
  generateApiDeclaration,
  generateResourceListing,
  type PublishedServerResource,
  resourceOfPublishedName,
} from '@ringflow/client';

/** Options of the published documents. */
export interface ApiDocsOptions {
  /** Absolute URL of the interface root, e.g. `http://127.0.0.1:8088/ari`. */
  readonly basePath: string;
  readonly apiVersion?: string;
  /**
   * The name the server-level resource is published under: `core` (the specification's; the
   * default) or `asterisk` (a real server's). Only that name has a document.
   */
  readonly serverResource?: PublishedServerResource;
}

/**
 * Answers a request for the Swagger documents, `path` being below the interface root:
 * `/api-docs/resources.json` (the listing) and `/api-docs/{resource}.json` (one declaration);
 * anything else under `/api-docs/` is 404 `Resource not found`, and any method but GET 405
 * `Unsupported method`, as on the real server.
 *
 * @example
 * apiDocsResponse('GET', '/api-docs/channels.json', { basePath: 'http://127.0.0.1:8088/ari' }).status; // 200
 * apiDocsResponse('GET', '/api-docs/core.json', { basePath: 'http://127.0.0.1:8088/ari' }).status; // 200
 */
export function apiDocsResponse(method: string, path: string, options: ApiDocsOptions): SimResponse {
  // res_ari.c refuses every other method (OPTIONS and HEAD too) before it looks for the document.
  if (method !== 'GET') return { status: 405, body: { message: 'Unsupported method' } };
  const serverResource = options.serverResource ?? 'core';
  const docOptions = {
    basePath: options.basePath,
    serverResource,
    ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
  };
  const name = /^\/api-docs\/([A-Za-z]+)\.json$/.exec(path)?.[1];
  if (name === 'resources') return { status: 200, body: generateResourceListing(docOptions) };
  const resource = name === undefined ? undefined : resourceOfPublishedName(name, serverResource);
  if (resource === undefined) return { status: 404, body: { message: 'Resource not found' } };
  return { status: 200, body: generateApiDeclaration(resource, docOptions) };
}
