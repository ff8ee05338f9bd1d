import type { Application as ApplicationJson } from '@ringflow/client';

/** Placeholder ids the real server lists for an application subscribed to everything. */
export const ALL_TOPICS = {
  channel: '__AST_CHANNEL_ALL_TOPIC',
  bridge: '__AST_BRIDGE_ALL_TOPIC',
  endpoint: '__AST_ENDPOINT_ALL_TOPIC',
  deviceState: '__AST_DEVICE_STATE_ALL_TOPIC',
} as const;

/** One entry of an event filter: `{type: 'StasisStart'}`. */
export type EventFilterEntry = Readonly<Record<string, unknown>>;

/** Where an application's events go: one event-stream connection. */
export interface EventSink {
  deliver(event: Record<string, unknown>): void;
}

/**
 * A Stasis application as the server keeps it (ARI's `Application` resource): its name, its
 * subscriptions and the connection it is bound to.
 * Subscriptions outlive a connection: a second connection that takes the app over keeps them
 * (the real server keeps `subscribeAll` even when the new socket did not ask for it).
 */
export class StasisApp {
  readonly name: string;
  readonly channelIds = new Set<string>();
  readonly bridgeIds = new Set<string>();
  /** `tech/resource` for one endpoint, `tech` for every endpoint of a technology. */
  readonly endpointIds = new Set<string>();
  readonly deviceNames = new Set<string>();
  allChannels = false;
  allBridges = false;
  allEndpoints = false;
  allDevices = false;
  eventsAllowed: EventFilterEntry[] = [];
  eventsDisallowed: EventFilterEntry[] = [];
  /** The connection events go to; undefined while no socket holds the app. */
  sink: EventSink | undefined;

  constructor(name: string) {
    this.name = name;
  }

  /** True when the app was asked for everything (`subscribeAll=true`). */
  get subscribedToAll(): boolean {
    return this.allChannels && this.allBridges && this.allEndpoints && this.allDevices;
  }

  subscribeAll(): void {
    this.allChannels = this.allBridges = this.allEndpoints = this.allDevices = true;
  }

  /** Applies the event filter: allowed types (when any) admit, disallowed types refuse. */
  allows(type: string): boolean {
    if (this.eventsAllowed.length > 0 && !this.eventsAllowed.some((f) => f.type === type)) return false;
    return !this.eventsDisallowed.some((f) => f.type === type);
  }

  /** The application as `GET /applications/{name}` shows it. */
  toJson(): ApplicationJson {
    return {
      name: this.name,
      channel_ids: this.allChannels ? [ALL_TOPICS.channel] : [...this.channelIds],
      bridge_ids: this.allBridges ? [ALL_TOPICS.bridge] : [...this.bridgeIds],
      endpoint_ids: this.allEndpoints ? [ALL_TOPICS.endpoint] : [...this.endpointIds],
      device_names: this.allDevices ? [ALL_TOPICS.deviceState] : [...this.deviceNames],
      events_allowed: this.eventsAllowed.map((f) => ({ ...f })),
      events_disallowed: this.eventsDisallowed.map((f) => ({ ...f })),
    };
  }
}
