import { SimError } from '../SimError.ts';
import type { World } from './World.ts';

/** A resource named in a subscription or a user event: `channel:abc`, `bridge:b1`, `endpoint:PJSIP/alice`, `deviceState:Stasis:desk`. */
export type EventSource =
  | { readonly kind: 'channel' | 'bridge' | 'endpoint' | 'deviceState'; readonly id: string }
  | { readonly kind: 'channel' | 'bridge' | 'endpoint' | 'deviceState'; readonly all: true };

const SCHEMES: Readonly<Record<string, EventSource['kind']>> = {
  channel: 'channel',
  channels: 'channel',
  bridge: 'bridge',
  bridges: 'bridge',
  endpoint: 'endpoint',
  endpoints: 'endpoint',
  deviceState: 'deviceState',
  deviceStates: 'deviceState',
};

/**
 * Parses an event source URI. A blank resource (`channel:`) means every resource of the type.
 * Refuses an unknown scheme with 400 `Invalid event source URI scheme`.
 */
export function parseEventSource(text: string, allowed: readonly EventSource['kind'][]): EventSource {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? undefined : SCHEMES[text.slice(0, colon)];
  if (!kind || !allowed.includes(kind)) throw new SimError(400, 'Invalid event source URI scheme');
  const id = text.slice(colon + 1);
  return id === '' ? { kind, all: true } : { kind, id };
}

/** True when the resource a source names exists (any device state exists). */
export function eventSourceExists(world: World, source: EventSource): boolean {
  if ('all' in source) return true;
  switch (source.kind) {
    case 'channel':
      return world.channel(source.id) !== undefined;
    case 'bridge':
      return world.bridges.has(source.id);
    case 'endpoint': {
      const slash = source.id.indexOf('/');
      if (slash < 0) return world.endpoints.hasTechnology(source.id);
      return world.endpoints.get(source.id.slice(0, slash), source.id.slice(slash + 1)) !== undefined;
    }
    case 'deviceState':
      return true;
  }
}
