import type { Clock, RestClient } from '@ringflow/client';
import type { BridgeSession, CreateBridgeOptions } from '@ringflow/runtime';
import type { Logger } from 'pino';
import { ConferenceRoom, type RoomStatus } from './ConferenceRoom.ts';

/** What the registry needs from the application. */
export interface ConferenceRoomsOptions {
  /** `app.createBridge`: a bridge session on the given server. */
  readonly createBridge: (options: CreateBridgeOptions) => Promise<BridgeSession>;
  /** `app.client`: the REST client of a server by name. */
  readonly clientOf: (server: string) => RestClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly entryTone?: string;
}

/** What a caller gets on entering a room. */
export interface RoomEntry {
  readonly room: ConferenceRoom;
  /** True for the caller who opened the room. */
  readonly moderator: boolean;
}

/**
 * The open rooms by server and name. The first caller of a name opens the room (its mixing bridge
 * is created once, however many callers arrive while the request is on its way); the room closes
 * itself when its last member leaves, and the next caller of that name opens a new one.
 *
 * @example
 * const rooms = new ConferenceRooms({ createBridge: (o) => app.createBridge(o), clientOf: (s) => app.client(s), clock, logger });
 * const { room, moderator } = await rooms.enter('standup', call.server.name, call.channelId, call.signal);
 */
export class ConferenceRooms {
  private readonly options: ConferenceRoomsOptions;
  private readonly rooms = new Map<string, Promise<ConferenceRoom>>();
  private readonly ready = new Map<string, ConferenceRoom>();

  constructor(options: ConferenceRoomsOptions) {
    this.options = options;
  }

  /** Rooms open now (their bridge exists or is being created). */
  get size(): number {
    return this.rooms.size;
  }

  /** The rooms whose bridge exists, as they are now. */
  list(): RoomStatus[] {
    return [...this.ready.values()].map((room) => room.status);
  }

  /**
   * Admits a caller to the room `name` on `server`, opening it first when nobody is in it.
   * `gone` aborts when the call ends; the caller then leaves the room.
   */
  async enter(name: string, server: string, channelId: string, gone: AbortSignal): Promise<RoomEntry> {
    const room = await this.open(name, server);
    // The room may have closed while this caller waited for the bridge (everyone else left).
    if (room.isClosed) return this.enter(name, server, channelId, gone);
    return { room, ...room.admit(channelId, gone) };
  }

  private open(name: string, server: string): Promise<ConferenceRoom> {
    const k = key(server, name);
    const existing = this.rooms.get(k);
    if (existing) return existing;
    const opening = this.options
      .createBridge({ server, name, type: 'mixing' })
      .then((bridge) => {
        const room = new ConferenceRoom({
          name,
          bridge,
          client: this.options.clientOf(server),
          clock: this.options.clock,
          logger: this.options.logger,
          ...(this.options.entryTone === undefined ? {} : { entryTone: this.options.entryTone }),
          onClosed: () => {
            if (this.rooms.get(k) === opening) this.rooms.delete(k);
            if (this.ready.get(k) === room) this.ready.delete(k);
          },
        });
        this.ready.set(k, room);
        return room;
      })
      .catch((error: unknown) => {
        // Not kept: the next caller tries again.
        if (this.rooms.get(k) === opening) this.rooms.delete(k);
        throw error;
      });
    this.rooms.set(k, opening);
    return opening;
  }
}

function key(server: string, name: string): string {
  return `${server}\u0000${name}`;
}
