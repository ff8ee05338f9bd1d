import { SimError } from '../SimError.ts';
import type { SimEndpoint } from '../world/Endpoints.ts';
import type { World } from '../world/World.ts';
import { containers, type HandlerContext, type HandlerTable, ok, str } from './HandlerContext.ts';

const ACCEPTED = { status: 202 } as const;

/** A message address `tech:resource` (`pjsip:alice`, `sip:alice@host`) -> the endpoint, if simulated. */
function endpointOfAddress(world: World, address: string): SimEndpoint | undefined {
  const colon = address.indexOf(':');
  if (colon <= 0) return undefined;
  const tech = address.slice(0, colon);
  const rest = address.slice(colon + 1);
  const resource = rest.split('@')[0] ?? rest;
  const techs = tech.toLowerCase() === 'sip' ? ['PJSIP', 'SIP'] : [tech];
  for (const t of techs) {
    const ep = world.endpoints.find(t, rest) ?? world.endpoints.find(t, resource);
    if (ep) return ep;
  }
  return undefined;
}

function findEndpoint({ world, params }: HandlerContext): SimEndpoint {
  const ep = world.endpoints.get(str(params, 'tech'), str(params, 'resource'));
  if (!ep) throw new SimError(404, 'Endpoint not found');
  return ep;
}

function send(ctx: HandlerContext, ep: SimEndpoint, to: string): typeof ACCEPTED {
  const { params } = ctx;
  ctx.world.services.outbound('message', {
    endpoint: ep.key,
    to,
    from: str(params, 'from'),
    body: str(params, 'body'),
    // Any JSON value is accepted in variables, as on the real server.
    variables: containers(params, 'variables'),
  });
  return ACCEPTED;
}

/** Handlers of `/endpoints`: listing and out-of-call messages (refer leaves the server like a message). */
export const endpointsHandlers: HandlerTable = {
  list: ({ world }) => ok(world.endpoints.list().map((ep) => ep.toJson())),

  listByTech: ({ world, params }) => {
    const tech = str(params, 'tech');
    const eps = world.endpoints.listByTech(tech);
    if (eps.length === 0) throw new SimError(404, `No Endpoints found - invalid tech ${tech}`);
    return ok(eps.map((ep) => ep.toJson()));
  },

  get: (ctx) => ok(findEndpoint(ctx).toJson()),

  sendMessage: (ctx) => {
    const to = str(ctx.params, 'to');
    const ep = endpointOfAddress(ctx.world, to);
    if (!ep) throw new SimError(404, 'Endpoint not found');
    return send(ctx, ep, to);
  },

  sendMessageToEndpoint: (ctx) => {
    const ep = findEndpoint(ctx);
    return send(ctx, ep, `${ep.technology.toLowerCase()}:${ep.resource}`);
  },

  refer: (ctx) => {
    const ep = endpointOfAddress(ctx.world, str(ctx.params, 'to'));
    if (!ep) throw new SimError(404, 'Endpoint not found');
    ctx.world.services.outbound('refer', {
      endpoint: ep.key,
      to: str(ctx.params, 'to'),
      from: str(ctx.params, 'from'),
      referTo: str(ctx.params, 'refer_to'),
    });
    return ACCEPTED;
  },

  referToEndpoint: (ctx) => {
    const ep = findEndpoint(ctx);
    ctx.world.services.outbound('refer', {
      endpoint: ep.key,
      from: str(ctx.params, 'from'),
      referTo: str(ctx.params, 'refer_to'),
    });
    return ACCEPTED;
  },
};
