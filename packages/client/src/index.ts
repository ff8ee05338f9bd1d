/**
 * @ringflow/client: the description of the ARI interface, a typed REST client and the event stream.
 */
export * from './interface.ts';
export type { RequestOptions } from './rest/requestOptions.ts';
export * from './rest/index.ts';
export * from './events/index.ts';
export * from './media/index.ts';
export {
  SWAGGER_VERSION,
  apiDocsPath,
  generateApiDeclaration,
  generateResourceListing,
  isResourceName,
  resourceOfPublishedName,
} from './description/swagger.ts';
export type * from './description/swagger.ts';
