/**
 * @ringflow/client: the description of the ARI interface, a typed REST client and the event stream.
 */
export * from './description/index.ts';
export { handleSpecs } from './description/handles.ts';
export type { HandleName, HandleSpec } from './description/handles.ts';
export { validateParams, parseParamText, paramValues } from './description/validate.ts';
export type { ParamIssue } from './description/validate.ts';
export * from './errors/index.ts';
export * from './clock/index.ts';
export type * from './generated/types.ts';
export type { RequestOptions } from './rest/requestOptions.ts';
export * from './rest/index.ts';
export * from './events/index.ts';
export {
  SWAGGER_VERSION,
  apiDocsPath,
  generateApiDeclaration,
  generateResourceListing,
  isResourceName,
} from './description/swagger.ts';
export type * from './description/swagger.ts';
