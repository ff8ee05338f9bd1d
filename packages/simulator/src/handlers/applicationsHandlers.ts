import type { EventFilterEntry, StasisApp } from '../events/StasisApp.ts';
import { SimError } from '../SimError.ts';
import { type EventSource, eventSourceExists, parseEventSource } from '../world/eventSource.ts';
import { type HandlerContext, type HandlerTable, list, ok, str } from './HandlerContext.ts';

const KINDS = ['channel', 'bridge', 'endpoint', 'deviceState'] as const;

function findApp({ world, params }: HandlerContext): StasisApp {
  const app = world.stasisApp(str(params, 'applicationName'));
  if (!app) throw new SimError(404, 'Application not found');
  return app;
}

function idsOf(app: StasisApp, kind: EventSource['kind']): Set<string> {
  switch (kind) {
    case 'channel':
      return app.channelIds;
    case 'bridge':
      return app.bridgeIds;
    case 'endpoint':
      return app.endpointIds;
    case 'deviceState':
      return app.deviceNames;
  }
}

function setAll(app: StasisApp, kind: EventSource['kind'], value: boolean): void {
  if (kind === 'channel') app.allChannels = value;
  else if (kind === 'bridge') app.allBridges = value;
  else if (kind === 'endpoint') app.allEndpoints = value;
  else app.allDevices = value;
}

function readFilter(value: unknown): EventFilterEntry[] {
  if (!Array.isArray(value) || value.some((e) => typeof e !== 'object' || e === null || Array.isArray(e))) {
    throw new SimError(400, 'Invalid format definition');
  }
  return value.map((e) => ({ ...(e as EventFilterEntry) }));
}

/** Handlers of `/applications`: list, get, subscribe, unsubscribe, event filter. */
export const applicationsHandlers: HandlerTable = {
  list: ({ bus }) => ok(bus.activeApps().map((a) => a.toJson())),

  get: (ctx) => ok(findApp(ctx).toJson()),

  subscribe: (ctx) => {
    const app = findApp(ctx);
    const sources = list(ctx.params, 'eventSource').map((s) => parseEventSource(s, KINDS));
    for (const source of sources) {
      if (!eventSourceExists(ctx.world, source)) throw new SimError(422, 'Event source does not exist');
    }
    for (const source of sources) {
      if ('all' in source) setAll(app, source.kind, true);
      else idsOf(app, source.kind).add(source.id);
    }
    return ok(app.toJson());
  },

  unsubscribe: (ctx) => {
    const app = findApp(ctx);
    const sources = list(ctx.params, 'eventSource').map((s) => parseEventSource(s, KINDS));
    for (const source of sources) {
      const subscribed = 'all' in source ? true : idsOf(app, source.kind).has(source.id);
      if (!subscribed) throw new SimError(422, 'Event source was not subscribed to');
    }
    for (const source of sources) {
      if ('all' in source) setAll(app, source.kind, false);
      else idsOf(app, source.kind).delete(source.id);
    }
    return ok(app.toJson());
  },

  filter: (ctx) => {
    const app = findApp(ctx);
    const body = ctx.params.filter;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new SimError(400, 'Invalid format definition');
    }
    const filter = (body ?? {}) as Record<string, unknown>;
    const hasAllowed = 'allowed' in filter;
    const hasDisallowed = 'disallowed' in filter;
    const allowed = hasAllowed ? readFilter(filter.allowed) : undefined;
    const disallowed = hasDisallowed ? readFilter(filter.disallowed) : undefined;
    if (!hasAllowed && !hasDisallowed) {
      // An empty filter resets both lists, as observed.
      app.eventsAllowed = [];
      app.eventsDisallowed = [];
    }
    if (allowed) app.eventsAllowed = allowed;
    if (disallowed) app.eventsDisallowed = disallowed;
    return ok(app.toJson());
  },
};
