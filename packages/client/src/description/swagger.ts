/**
 * Swagger 1.2 documents of the interface, generated from ringflow's description: the resource
 * listing (`/api-docs/resources.json`) and one API declaration per resource
 * (`/api-docs/channels.json`...), in the shape ARI servers publish (Asterisk kept the 1.1 field
 * names `httpMethod`, `responseClass` and `errorResponses`; client generators expect them).
 */
import {
  INTERFACE_VERSION,
  RESOURCE_NAMES,
  RESOURCE_SUMMARIES,
  models,
  operationsByResource,
} from './index.ts';
import type { ModelPropertySpec, ModelSpec, OperationSpec, ParamSpec, ResourceName } from './spec.ts';

export const SWAGGER_VERSION = '1.2';

/**
 * Which interface the documents describe: `'current'` (everything the description knows, as a
 * current server publishes it) or `'1.10.0'` (only what exists in interface 1.10.0).
 */
export type SwaggerLevel = 'current' | '1.10.0';

export interface SwaggerOptions {
  /** Absolute URL of the interface root, e.g. `http://127.0.0.1:8088/ari`. */
  readonly basePath: string;
  /** Reported `apiVersion`; defaults to the description's interface version. */
  readonly apiVersion?: string;
  /** Defaults to `'current'`. */
  readonly level?: SwaggerLevel;
  /**
   * The name the server-level resource is published under: `'asterisk'` (its documents and paths
   * `/asterisk/...`, as real servers publish it; the default) or `'core'` (`/core/...`, as the
   * specification names it).
   */
  readonly serverResource?: PublishedServerResource;
}

/** The names the server-level resource can be published under (see {@link SwaggerOptions}). */
export type PublishedServerResource = 'asterisk' | 'core';

/**
 * The resource a published document name stands for: `core` is the description's `asterisk`
 * when the server resource is published as `core`; undefined for a name not published.
 *
 * @example
 * resourceOfPublishedName('core', 'core'); // 'asterisk'
 * resourceOfPublishedName('asterisk', 'core'); // undefined
 */
export function resourceOfPublishedName(
  name: string,
  serverResource: PublishedServerResource = 'asterisk',
): ResourceName | undefined {
  if (name === serverResource) return 'asterisk';
  if (name === 'asterisk' || !isResourceName(name)) return undefined;
  return name;
}

/** The name a resource is published under. */
function publishedName(resource: ResourceName, options: SwaggerOptions): string {
  return resource === 'asterisk' ? (options.serverResource ?? 'asterisk') : resource;
}

export interface SwaggerResourceListing {
  apiVersion: string;
  swaggerVersion: string;
  basePath: string;
  apis: { path: string; description: string }[];
}

export interface SwaggerAllowableValues {
  valueType: 'LIST';
  values: string[];
}

export interface SwaggerParameter {
  name: string;
  paramType: 'path' | 'query' | 'body';
  dataType: string;
  required: boolean;
  allowMultiple: boolean;
  allowableValues?: SwaggerAllowableValues;
  defaultValue?: string | number | boolean;
}

export interface SwaggerOperation {
  httpMethod: string;
  summary: string;
  nickname: string;
  responseClass: string;
  upgrade?: 'websocket';
  websocketProtocol?: string;
  parameters?: SwaggerParameter[];
  errorResponses?: { code: number; reason: string }[];
}

export interface SwaggerApi {
  path: string;
  operations: SwaggerOperation[];
}

export interface SwaggerProperty {
  type: string;
  required: boolean;
  allowableValues?: SwaggerAllowableValues;
}

export interface SwaggerModel {
  id: string;
  description: string;
  properties: Record<string, SwaggerProperty>;
  subTypes?: string[];
  discriminator?: string;
}

export interface SwaggerApiDeclaration {
  apiVersion: string;
  swaggerVersion: string;
  basePath: string;
  resourcePath: string;
  apis: SwaggerApi[];
  models: Record<string, SwaggerModel>;
}

/** `/api-docs/channels.{format}`: where a resource's declaration lives, relative to the base path. */
export function apiDocsPath(resource: string): string {
  return `/api-docs/${resource}.{format}`;
}

/**
 * The resource listing: one entry per resource, pointing at its API declaration.
 *
 * @example
 * generateResourceListing({ basePath: 'http://127.0.0.1:8088/ari' }).apis[0]
 * // { path: '/api-docs/asterisk.{format}', description: 'Server-level facilities: ...' }
 * generateResourceListing({ basePath: 'http://127.0.0.1:8088/ari', serverResource: 'core' }).apis[0]?.path;
 * // '/api-docs/core.{format}'
 */
export function generateResourceListing(options: SwaggerOptions): SwaggerResourceListing {
  return {
    apiVersion: options.apiVersion ?? INTERFACE_VERSION,
    swaggerVersion: SWAGGER_VERSION,
    basePath: options.basePath,
    apis: RESOURCE_NAMES.map((resource) => ({
      path: apiDocsPath(publishedName(resource, options)),
      description: RESOURCE_SUMMARIES[resource],
    })),
  };
}

/**
 * The API declaration of one resource: its operations grouped by path (in description order) and
 * the models the resource declares. Event types are declared in the `events` document as subtypes:
 * `Message` -> `Event` -> `StasisStart`...
 *
 * @example
 * const doc = generateApiDeclaration('channels', { basePath: 'http://127.0.0.1:8088/ari' });
 * doc.apis.find((a) => a.path === '/channels/{channelId}/answer')?.operations[0]?.nickname; // 'answer'
 */
export function generateApiDeclaration(
  resource: ResourceName,
  options: SwaggerOptions,
): SwaggerApiDeclaration {
  const level = options.level ?? 'current';
  const name = publishedName(resource, options);
  const apis: SwaggerApi[] = [];
  const byPath = new Map<string, SwaggerApi>();
  for (const op of operationsByResource[resource] as readonly OperationSpec[]) {
    if (!includes(op, level)) continue;
    // The description's paths start with the resource's own segment (`/asterisk/ping`).
    const path = name === resource ? op.path : op.path.replace(/^\/asterisk(?=\/|$)/, `/${name}`);
    let api = byPath.get(path);
    if (!api) {
      api = { path, operations: [] };
      byPath.set(path, api);
      apis.push(api);
    }
    api.operations.push(swaggerOperation(op, level));
  }

  const declared: Record<string, SwaggerModel> = {};
  for (const model of models as readonly ModelSpec[]) {
    if (model.resource === resource && includes(model, level))
      declared[model.id] = swaggerModel(model, level);
  }

  return {
    apiVersion: options.apiVersion ?? INTERFACE_VERSION,
    swaggerVersion: SWAGGER_VERSION,
    basePath: options.basePath,
    resourcePath: apiDocsPath(name),
    apis,
    models: declared,
  };
}

/** True when `name` is one of the interface's resources (`channels`, not `nonexistent`). */
export function isResourceName(name: string): name is ResourceName {
  return (RESOURCE_NAMES as readonly string[]).includes(name);
}

function includes(item: { readonly since?: string }, level: SwaggerLevel): boolean {
  return level === 'current' || item.since === undefined;
}

function swaggerOperation(op: OperationSpec, level: SwaggerLevel): SwaggerOperation {
  const out: SwaggerOperation = {
    httpMethod: op.method,
    summary: op.summary,
    nickname: op.name,
    responseClass: op.returns,
  };
  if (op.upgrade) {
    out.upgrade = op.upgrade;
    out.websocketProtocol = 'ari';
  }
  const parameters = op.params.filter((p) => includes(p, level)).map((p) => swaggerParameter(p, level));
  if (parameters.length > 0) out.parameters = parameters;
  if (op.errors.length > 0)
    out.errorResponses = op.errors.map((code) => ({ code, reason: errorReason(op, code) }));
  return out;
}

function swaggerParameter(param: ParamSpec, level: SwaggerLevel): SwaggerParameter {
  const out: SwaggerParameter = {
    name: param.name,
    paramType: param.in,
    dataType: param.type,
    // Swagger 1.2 requires path parameters to say `required: true`; the description leaves it
    // implicit on a few (as the 1.10.0 documents do).
    required: param.in === 'path' || param.required === true,
    allowMultiple: param.allowMultiple === true,
  };
  const values = enumValues(param, level);
  if (values) out.allowableValues = { valueType: 'LIST', values };
  if (param.default !== undefined) out.defaultValue = param.default;
  return out;
}

function enumValues(param: ParamSpec, level: SwaggerLevel): string[] | undefined {
  if (!param.enum) return undefined;
  if (level === 'current') return [...param.enum];
  const later = new Set(Object.values(param.enumSince ?? {}).flat());
  return param.enum.filter((v) => !later.has(v));
}

function swaggerModel(model: ModelSpec, level: SwaggerLevel): SwaggerModel {
  const properties: Record<string, SwaggerProperty> = {};
  for (const [name, prop] of Object.entries(model.properties) as [string, ModelPropertySpec][]) {
    if (!includes(prop, level)) continue;
    const out: SwaggerProperty = { type: prop.type, required: prop.required === true };
    if (prop.enum) out.allowableValues = { valueType: 'LIST', values: [...prop.enum] };
    properties[name] = out;
  }
  const out: SwaggerModel = { id: model.id, description: model.description, properties };
  if (model.subTypes) {
    // A 1.10.0 document must not point at subtypes it does not declare.
    out.subTypes = model.subTypes.filter((id) => level === 'current' || isIn110(id));
  }
  if (model.discriminator) out.discriminator = model.discriminator;
  return out;
}

function isIn110(modelId: string): boolean {
  const model = (models as readonly ModelSpec[]).find((m) => m.id === modelId);
  return model !== undefined && model.since === undefined;
}

/** Our own wording of what each documented error status means for an operation. */
function errorReason(op: OperationSpec, status: number): string {
  const named = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  switch (status) {
    case 400:
      return 'A parameter is missing or has a value the operation does not accept.';
    case 403:
      return 'The server does not permit this operation here.';
    case 404:
      return named.length > 0
        ? `Nothing matches ${named.join(', ')}.`
        : 'The requested resource does not exist.';
    case 409:
      return 'The resource is in a state that does not allow this operation.';
    case 412:
      return 'A precondition of the operation is not met (for example the channel is not in an application).';
    case 422:
      return 'A resource named in the parameters does not exist.';
    case 500:
      return 'The server failed to carry out the request.';
    case 501:
      return 'The server does not implement this operation.';
    default:
      return `Error ${status}.`;
  }
}
