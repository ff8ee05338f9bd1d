import { describe, expect, it } from 'vitest';
import { RESOURCE_NAMES, eventTypeNames, findModel, models, operations } from './index.ts';
import type { ModelSpec, ResourceName } from './spec.ts';
import {
  type SwaggerApiDeclaration,
  type SwaggerResourceListing,
  generateApiDeclaration,
  generateResourceListing,
  resourceOfPublishedName,
  isResourceName,
} from './swagger.ts';

const basePath = 'http://127.0.0.1:8088/ari';

function allDeclarations(level: 'current' | '1.10.0' = 'current'): Map<ResourceName, SwaggerApiDeclaration> {
  return new Map(RESOURCE_NAMES.map((r) => [r, generateApiDeclaration(r, { basePath, level })]));
}

const PRIMITIVES = new Set([
  'string',
  'int',
  'long',
  'double',
  'boolean',
  'Date',
  'object',
  'containers',
  'byte',
]);
const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);
const PARAM_TYPES = new Set(['path', 'query', 'body', 'header', 'form']);

/**
 * A small structural check of Swagger 1.2 documents as ARI servers publish them: required fields
 * and their types, path templates whose `{name}` segments are declared path parameters, unique
 * nicknames, and every type named (response, property, subtype) resolvable across the documents.
 * Returns the problems found, one line each; an empty list means the documents are well formed.
 */
function checkSwagger(
  listing: SwaggerResourceListing,
  declarations: readonly SwaggerApiDeclaration[],
): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, where: string, what: string) => {
    if (!ok) problems.push(`${where}: ${what}`);
  };
  const isText = (v: unknown) => typeof v === 'string' && v.length > 0;

  need(isText(listing.apiVersion), 'listing', 'apiVersion must be a non-empty string');
  need(listing.swaggerVersion === '1.2', 'listing', 'swaggerVersion must be "1.2"');
  need(
    /^https?:\/\/[^/]+\/.+[^/]$/.test(listing.basePath),
    'listing',
    'basePath must be an absolute URL with the root',
  );
  need(Array.isArray(listing.apis) && listing.apis.length > 0, 'listing', 'apis must be a non-empty array');
  const listed = new Set<string>();
  for (const api of listing.apis) {
    need(isText(api.path) && api.path.startsWith('/'), `listing ${api.path}`, 'path must start with /');
    need(isText(api.description), `listing ${api.path}`, 'description must be a non-empty string');
    need(!listed.has(api.path), `listing ${api.path}`, 'listed twice');
    listed.add(api.path);
  }

  const knownModels = new Set<string>();
  for (const doc of declarations) for (const id of Object.keys(doc.models)) knownModels.add(id);
  const resolves = (type: string): boolean => {
    const inner = /^List\[(.+)\]$/.exec(type)?.[1] ?? type;
    return PRIMITIVES.has(inner) || knownModels.has(inner);
  };

  for (const doc of declarations) {
    const at = doc.resourcePath;
    need(listed.has(doc.resourcePath), at, 'resourcePath is not in the resource listing');
    need(doc.swaggerVersion === '1.2', at, 'swaggerVersion must be "1.2"');
    need(doc.basePath === listing.basePath, at, 'basePath differs from the listing');
    need(doc.apiVersion === listing.apiVersion, at, 'apiVersion differs from the listing');
    const nicknames = new Set<string>();
    const paths = new Set<string>();
    for (const api of doc.apis) {
      need(
        api.path.startsWith('/') && !api.path.endsWith('/'),
        `${at} ${api.path}`,
        'path must start and not end with /',
      );
      need(!paths.has(api.path), `${at} ${api.path}`, 'path appears in two api entries');
      paths.add(api.path);
      const templated = [...api.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const methods = new Set<string>();
      for (const op of api.operations) {
        const where = `${at} ${op.httpMethod} ${api.path}`;
        need(METHODS.has(op.httpMethod), where, 'httpMethod must be GET, POST, PUT or DELETE');
        need(!methods.has(op.httpMethod), where, 'method appears twice on one path');
        methods.add(op.httpMethod);
        need(
          isText(op.nickname) && !nicknames.has(op.nickname),
          where,
          `nickname ${op.nickname} missing or repeated`,
        );
        nicknames.add(op.nickname);
        need(isText(op.summary), where, 'summary must be a non-empty string');
        need(
          op.responseClass === 'void' || op.responseClass === 'binary' || resolves(op.responseClass),
          where,
          `responseClass ${op.responseClass} does not resolve`,
        );
        const params = op.parameters ?? [];
        const pathParams = params.filter((p) => p.paramType === 'path').map((p) => p.name);
        need(
          JSON.stringify([...pathParams].sort()) === JSON.stringify([...templated].sort()),
          where,
          `path parameters ${pathParams} do not match the template ${templated}`,
        );
        const names = new Set<string>();
        for (const p of params) {
          need(!names.has(p.name), where, `parameter ${p.name} declared twice`);
          names.add(p.name);
          need(PARAM_TYPES.has(p.paramType), where, `parameter ${p.name} has paramType ${p.paramType}`);
          need(PRIMITIVES.has(p.dataType), where, `parameter ${p.name} has dataType ${p.dataType}`);
          need(
            typeof p.required === 'boolean' && typeof p.allowMultiple === 'boolean',
            where,
            `${p.name} flags`,
          );
          if (p.paramType === 'path') need(p.required, where, `path parameter ${p.name} must be required`);
          if (p.allowableValues) {
            need(p.allowableValues.valueType === 'LIST', where, `${p.name} allowableValues.valueType`);
            need(p.allowableValues.values.length > 0, where, `${p.name} allowableValues is empty`);
          }
          if (p.defaultValue !== undefined && p.allowableValues && !p.allowMultiple) {
            need(
              p.allowableValues.values.includes(String(p.defaultValue)),
              where,
              `${p.name} default ${p.defaultValue} is not an allowed value`,
            );
          }
        }
        for (const e of op.errorResponses ?? []) {
          need(Number.isInteger(e.code) && e.code >= 400 && e.code < 600, where, `error code ${e.code}`);
          need(isText(e.reason), where, `error ${e.code} has no reason`);
        }
      }
    }
    for (const [key, model] of Object.entries(doc.models)) {
      const where = `${at} model ${key}`;
      need(model.id === key, where, `id ${model.id} differs from its key`);
      need(isText(model.description), where, 'description must be a non-empty string');
      for (const [name, prop] of Object.entries(model.properties)) {
        need(resolves(prop.type), where, `property ${name} has type ${prop.type} that does not resolve`);
        need(typeof prop.required === 'boolean', where, `property ${name} required must be boolean`);
      }
      for (const sub of model.subTypes ?? [])
        need(knownModels.has(sub), where, `subtype ${sub} is not declared`);
      if (model.discriminator !== undefined) {
        need(
          model.discriminator in model.properties,
          where,
          `discriminator ${model.discriminator} is no property`,
        );
      }
    }
  }
  return problems;
}

describe('generateResourceListing', () => {
  it('lists every resource once, with the base path including the interface root', () => {
    const listing = generateResourceListing({ basePath });
    expect(listing.swaggerVersion).toBe('1.2');
    expect(listing.basePath).toBe(basePath);
    expect(listing.apis.map((a) => a.path)).toEqual(RESOURCE_NAMES.map((r) => `/api-docs/${r}.{format}`));
    for (const api of listing.apis) expect(api.description.length).toBeGreaterThan(0);
  });

  it('reports the apiVersion it is given', () => {
    expect(generateResourceListing({ basePath, apiVersion: '2.0.0' }).apiVersion).toBe('2.0.0');
  });

  it('names the server resource core when asked, as the specification does', () => {
    const paths = generateResourceListing({ basePath, serverResource: 'core' }).apis.map((a) => a.path);
    expect(paths).toContain('/api-docs/core.{format}');
    expect(paths).not.toContain('/api-docs/asterisk.{format}');
    expect(paths).toHaveLength(RESOURCE_NAMES.length);
  });
});

describe('a server resource published as core', () => {
  it('declares its operations below /core, with the same operations and models', () => {
    const core = generateApiDeclaration('asterisk', { basePath, serverResource: 'core' });
    const asterisk = generateApiDeclaration('asterisk', { basePath });
    expect(core.resourcePath).toBe('/api-docs/core.{format}');
    expect(core.apis.map((a) => a.path)).toEqual(
      asterisk.apis.map((a) => a.path.replace(/^\/asterisk/, '/core')),
    );
    expect(core.apis.map((a) => a.path)).toContain('/core/config/dynamic/{configClass}/{objectType}/{id}');
    expect(core.models).toEqual(asterisk.models);
    // Other resources are not touched.
    expect(generateApiDeclaration('channels', { basePath, serverResource: 'core' })).toEqual(
      generateApiDeclaration('channels', { basePath }),
    );
  });

  it('passes the Swagger 1.2 structural check', () => {
    const listing = generateResourceListing({ basePath, serverResource: 'core' });
    const docs = RESOURCE_NAMES.map((r) => generateApiDeclaration(r, { basePath, serverResource: 'core' }));
    expect(checkSwagger(listing, docs)).toEqual([]);
  });

  it('maps published names back to resources, and only the published ones', () => {
    expect(resourceOfPublishedName('core', 'core')).toBe('asterisk');
    expect(resourceOfPublishedName('asterisk', 'core')).toBeUndefined();
    expect(resourceOfPublishedName('asterisk', 'asterisk')).toBe('asterisk');
    expect(resourceOfPublishedName('core', 'asterisk')).toBeUndefined();
    expect(resourceOfPublishedName('channels', 'core')).toBe('channels');
    expect(resourceOfPublishedName('nonexistent')).toBeUndefined();
  });
});

describe('generateApiDeclaration', () => {
  it('declares every operation of the description exactly once, with its method and path', () => {
    const seen: string[] = [];
    for (const [resource, doc] of allDeclarations()) {
      expect(doc.resourcePath).toBe(`/api-docs/${resource}.{format}`);
      for (const api of doc.apis) {
        for (const op of api.operations) seen.push(`${resource}.${op.nickname} ${op.httpMethod} ${api.path}`);
      }
    }
    const expected = operations.map((op) => `${op.resource}.${op.name} ${op.method} ${op.path}`);
    expect([...seen].sort()).toEqual([...expected].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('groups operations that share a path under one api entry', () => {
    const doc = generateApiDeclaration('channels', { basePath });
    const hold = doc.apis.filter((a) => a.path === '/channels/{channelId}/hold');
    expect(hold).toHaveLength(1);
    expect(hold[0]!.operations.map((o) => `${o.httpMethod} ${o.nickname}`)).toEqual([
      'POST hold',
      'DELETE unhold',
    ]);
  });

  it('writes parameters with Swagger types, flags, allowed values and defaults', () => {
    const doc = generateApiDeclaration('channels', { basePath });
    const hangup = doc.apis
      .find((a) => a.path === '/channels/{channelId}')!
      .operations.find((o) => o.nickname === 'hangup')!;
    const reason = hangup.parameters!.find((p) => p.name === 'reason')!;
    expect(reason).toMatchObject({
      paramType: 'query',
      dataType: 'string',
      required: false,
      allowMultiple: false,
    });
    expect(reason.allowableValues?.valueType).toBe('LIST');
    expect(reason.allowableValues?.values).toContain('busy');
    const originate = doc.apis
      .find((a) => a.path === '/channels')!
      .operations.find((o) => o.nickname === 'originate')!;
    expect(originate.parameters!.find((p) => p.name === 'timeout')).toMatchObject({
      dataType: 'int',
      defaultValue: 30,
    });
    expect(originate.parameters!.find((p) => p.name === 'endpoint')).toMatchObject({ required: true });
    expect(originate.parameters!.find((p) => p.name === 'variables')).toMatchObject({
      paramType: 'body',
      dataType: 'containers',
    });
    expect(originate.errorResponses!.map((e) => e.code)).toEqual([400, 409]);
  });

  it('marks the event stream as a WebSocket upgrade', () => {
    const doc = generateApiDeclaration('events', { basePath });
    const ws = doc.apis.find((a) => a.path === '/events')!.operations[0]!;
    expect(ws).toMatchObject({
      httpMethod: 'GET',
      upgrade: 'websocket',
      websocketProtocol: 'ari',
      responseClass: 'Message',
    });
    expect(ws.parameters!.find((p) => p.name === 'app')).toMatchObject({
      required: true,
      allowMultiple: true,
    });
  });

  it('declares every model in the document of its resource, and nowhere else', () => {
    const declarations = allDeclarations();
    for (const model of models as readonly ModelSpec[]) {
      const holders = [...declarations].filter(([, doc]) => model.id in doc.models).map(([r]) => r);
      expect(holders, model.id).toEqual([model.resource]);
      const declared = declarations.get(model.resource)!.models[model.id]!;
      expect(Object.keys(declared.properties).sort()).toEqual(Object.keys(model.properties).sort());
    }
  });

  it('keeps the event subtype chain Message -> Event -> every event type', () => {
    const events = generateApiDeclaration('events', { basePath });
    expect(events.models.Message).toMatchObject({ discriminator: 'type' });
    expect(events.models.Message!.subTypes).toContain('Event');
    expect(events.models.Event!.subTypes).toEqual([...eventTypeNames]);
    expect(eventTypeNames).toContain('StasisStart');
    for (const name of eventTypeNames) {
      expect(events.models[name], name).toBeDefined();
      // A subtype is declared once, below exactly one parent.
      const parents = Object.values(events.models).filter((m) => m.subTypes?.includes(name));
      expect(parents.map((p) => p.id)).toEqual(['Event']);
    }
  });

  it('survives a JSON round trip unchanged', () => {
    const listing = generateResourceListing({ basePath });
    expect(JSON.parse(JSON.stringify(listing))).toEqual(listing);
    for (const doc of allDeclarations().values()) expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('passes the Swagger 1.2 structural check, at both levels', () => {
    for (const level of ['current', '1.10.0'] as const) {
      const listing = generateResourceListing({ basePath });
      expect(checkSwagger(listing, [...allDeclarations(level).values()])).toEqual([]);
    }
  });

  it('leaves out what came after 1.10.0 at level 1.10.0', () => {
    const current = generateApiDeclaration('channels', { basePath });
    const old = generateApiDeclaration('channels', { basePath, level: '1.10.0' });
    const paths = (d: SwaggerApiDeclaration) => d.apis.flatMap((a) => a.operations.map((o) => o.nickname));
    expect(paths(current)).toContain('create');
    expect(paths(old)).not.toContain('create');
    expect(old.models.Channel!.properties.protocol_id).toBeUndefined();
    expect(current.models.Channel!.properties.protocol_id).toBeDefined();
    const count = (level: 'current' | '1.10.0') =>
      [...allDeclarations(level).values()].reduce(
        (n, d) => n + d.apis.reduce((m, a) => m + a.operations.length, 0),
        0,
      );
    expect(count('1.10.0')).toBe(operations.filter((o) => o.since === undefined).length);
    expect(count('1.10.0')).toBe(94);
  });
});

describe('the structural check', () => {
  it('catches a broken document', () => {
    const listing = generateResourceListing({ basePath });
    const docs = [...allDeclarations().values()];
    const channels = structuredClone(docs.find((d) => d.resourcePath.includes('channels'))!);
    channels.apis[0]!.operations[0]!.responseClass = 'NoSuchModel';
    channels.models.Channel!.properties.caller!.type = 'Missing';
    channels.apis.push({
      path: '/x/{id}',
      operations: [{ httpMethod: 'PATCH', summary: 's', nickname: 'list', responseClass: 'void' }],
    });
    const problems = checkSwagger(listing, [...docs.filter((d) => d !== docs[2]), channels]);
    expect(problems.join('\n')).toMatch(/responseClass NoSuchModel/);
    expect(problems.join('\n')).toMatch(/caller has type Missing/);
    expect(problems.join('\n')).toMatch(/httpMethod must be/);
    expect(problems.join('\n')).toMatch(/nickname list missing or repeated/);
    expect(problems.join('\n')).toMatch(/do not match the template/);
  });
});

describe('isResourceName', () => {
  it('knows the resources and nothing else', () => {
    expect(isResourceName('channels')).toBe(true);
    expect(isResourceName('nonexistent')).toBe(false);
    expect(isResourceName('toString')).toBe(false);
    expect(findModel('Channel')?.resource).toBe('channels');
  });
});
