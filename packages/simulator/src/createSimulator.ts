import { type Clock, type PublishedServerResource, systemClock } from '@ringflow/client';
import type { Dialplan } from './dialplan/Dialplan.ts';
import { loadDefaultDialplan } from './dialplan/loadDialplanFile.ts';
import { parseDialplan } from './dialplan/parseDialplan.ts';
import {
  DeviceStates,
  DynamicConfig,
  LogChannels,
  Mailboxes,
  ModuleRegistry,
  RecordingStore,
  SoundCatalogue,
  type SoundCatalogueOptions,
} from './facilities/index.ts';
import { SimulatorDriver } from './driver/SimulatorDriver.ts';
import { EventBus } from './events/EventBus.ts';
import { handlers } from './handlers/index.ts';
import { configureMediaSockets, type MediaSockets } from './media/MediaSockets.ts';
import type { MediaWebSocketOptions } from './media/MediaWebSocketOptions.ts';
import { missingResource } from './routing/lookupBeforeChecks.ts';
import { routeRequest } from './routing/Router.ts';
import { readParams } from './routing/readParams.ts';
import { SimError } from './SimError.ts';
import type {
  EventConnection,
  EventConnectionRequest,
  SimRequest,
  SimResponse,
  SimulatedServer,
} from './transport.ts';
import { hangupChannel } from './world/channelLifecycle.ts';
import { Endpoints } from './world/Endpoints.ts';
import { checkFarEndConfig, type FarEndConfig } from './world/FarEndBehaviour.ts';
import type { Facilities } from './world/Facilities.ts';
import { World } from './world/World.ts';
import type { WorldServices } from './world/WorldServices.ts';

/** The server identifier the simulator reports by default (`asterisk_id`, `entity_id`). */
export const DEFAULT_ASTERISK_ID = '02:72:66:00:00:01';

export interface SimulatorOptions {
  /** Where time comes from: `systemClock` (default) or a `VirtualClock` in tests. */
  readonly clock?: Clock;
  /**
   * The dialplan the channels run: `extensions.conf` text (with a file name for messages) or an
   * already parsed dialplan. Default: the simulator's shipped `extensions.conf`.
   */
  readonly dialplan?: Dialplan | { readonly text: string; readonly file?: string };
  /** The server identifier on every event and on ping. */
  readonly asteriskId?: string;
  /** The sound catalogue: extra sounds, or a replacement list (see SoundCatalogue). Default: the core sounds. */
  readonly sounds?: Omit<SoundCatalogueOptions, 'recordings'>;
  /** Keep stored recordings as files under this directory; default: in memory. */
  readonly recordingsDir?: string;
  /** Interface users listed by dynamic configuration (`res_ari/user`). */
  readonly users?: readonly {
    readonly name: string;
    readonly password: string;
    readonly readOnly?: boolean;
  }[];
  /**
   * The name the published description (`/api-docs/`) gives the server-level resource: `core`
   * (the specification's; default) or `asterisk` (a real server's), for clients that build their
   * interface from the description. Both `/core/...` and `/asterisk/...` are served either way.
   */
  readonly serverResource?: PublishedServerResource;
  /**
   * The endpoints that exist (`tech/resource`, `PJSIP/alice`), and how each behaves when dialled:
   * a list (each answers after `answerOutboundAfterMs`) or a map to a {@link FarEndConfig}
   * (`{ 'PJSIP/operator': 'busy', 'PJSIP/alice': { answerAfterMs: 3000 } }`). Dialling any other
   * endpoint fails as on a real server: `500 {"error":"Allocation failed"}`. Endpoints that call
   * in (the driver's `placeCall`) exist from their first call and answer after the delay.
   */
  readonly endpoints?: readonly string[] | Readonly<Record<string, FarEndConfig>>;
  /**
   * What dialling a phone endpoint (PJSIP, SIP, IAX2, DAHDI) that was never configured does:
   * `'fail'` (default) as on a real server, `500 {"error":"Allocation failed"}`; `'ring'`: the
   * endpoint is made as it is dialled and rings like a configured one (answered after
   * `answerOutboundAfterMs`, or by the driver). For consoles whose flows compute the endpoints
   * they dial at run time (`ringflow dev`).
   */
  readonly unknownEndpoints?: 'fail' | 'ring';
  /**
   * Outbound calls to endpoints that `answer` are answered after this many milliseconds of
   * ringing; `null` makes them ring until the driver answers or rejects them. Default 1000.
   */
  readonly answerOutboundAfterMs?: number | null;
  /**
   * Media over WebSocket (`POST /channels/externalMedia` with `transport=websocket`): the
   * `websocket_client` sections media channels may dial, and how. Applications may always
   * connect in (`connection_type=server`) at `/media/<MEDIA_WEBSOCKET_CONNECTION_ID>`.
   */
  readonly mediaWebSockets?: MediaWebSocketOptions;
}

/** An in-memory server speaking the interface: see {@link createSimulator}. */
export interface Simulator extends SimulatedServer {
  readonly clock: Clock;
  readonly asteriskId: string;
  readonly serverResource: PublishedServerResource;
  /** Acts as callers and phones do (place calls, press digits, hang up...) and observes events. */
  readonly driver: SimulatorDriver;
  /**
   * Media over WebSocket: incoming connections (`acceptIncoming`, which the wire server serves at
   * `/media/<id>`) and what callers heard of the audio applications sent (`heard`, `onHeard`).
   */
  readonly media: MediaSockets;
  /** How many channels exist (hung-up snoops lingering included). */
  readonly channelCount: number;
  /** True while a channel with this id exists (not yet destroyed). */
  hasChannel(id: string): boolean;
  /** Names of the recordings in progress (queued, recording or paused), on channels and bridges. */
  readonly liveRecordings: readonly string[];
  /** Diagnostics of the dialplan and the rules (warnings, failures), newest last. */
  readonly diagnostics: readonly {
    readonly level: string;
    readonly message: string;
    readonly time: string;
  }[];
  /**
   * Forgets an application whose connection is closed for good (a per-call connection after its
   * call left): a real server drops a per-call app with its connection, so names do not pile up.
   * An application with a live connection is kept.
   */
  forgetApplication(name: string): void;
  /** Every application name the server keeps, connected or not (a reconnecting client finds its own). */
  knownApplications(): readonly string[];
  /**
   * Serves `Stasis(app)` with one connection per call, as a real server's `per_call_config`
   * outbound WebSocket does: `open` dials the application for the channel and resolves with the
   * application name the connection registered (`app:<channel name>`), or undefined when it could
   * not connect (then `Stasis()` fails and the dialplan goes on). Returns the remover.
   */
  servePerCall(
    app: string,
    open: (channel: { readonly id: string; readonly name: string }) => Promise<string | undefined>,
  ): () => void;
  /** Shuts the server down: every channel is hung up and every event stream closed. */
  close(): void;
}

function readDialplan(option: SimulatorOptions['dialplan']): Dialplan {
  if (!option) return loadDefaultDialplan();
  if ('text' in option) return parseDialplan(option.text, option.file ?? 'extensions.conf');
  return option;
}

class SimulatorImpl implements Simulator {
  readonly clock: Clock;
  readonly asteriskId: string;
  readonly serverResource: PublishedServerResource;
  readonly bus: EventBus;
  readonly world: World;
  readonly facilities: Facilities;
  readonly driver: SimulatorDriver;
  readonly media: MediaSockets;
  private closed = false;
  /** Listeners of what leaves the server (text messages, DTMF to far ends); the driver uses them. */
  readonly outboundListeners = new Set<(kind: string, detail: Readonly<Record<string, unknown>>) => void>();

  constructor(options: SimulatorOptions) {
    this.clock = options.clock ?? systemClock;
    this.asteriskId = options.asteriskId ?? DEFAULT_ASTERISK_ID;
    if (options.serverResource !== undefined && !['core', 'asterisk'].includes(options.serverResource))
      throw new TypeError(
        `serverResource: expected 'core' or 'asterisk', got ${JSON.stringify(options.serverResource)}`,
      );
    this.serverResource = options.serverResource ?? 'core';
    this.bus = new EventBus(this.clock, this.asteriskId);
    if (options.unknownEndpoints !== undefined && !['fail', 'ring'].includes(options.unknownEndpoints))
      throw new TypeError(
        `unknownEndpoints: expected 'fail' or 'ring', got ${JSON.stringify(options.unknownEndpoints)}`,
      );
    const endpoints = new Endpoints(options.unknownEndpoints ?? 'fail');
    const configured: [string, FarEndConfig | undefined][] = Array.isArray(options.endpoints)
      ? options.endpoints.map((key) => [key, undefined])
      : Object.entries(options.endpoints ?? {});
    for (const [key, farEnd] of configured) {
      const slash = key.indexOf('/');
      if (slash <= 0 || slash === key.length - 1)
        throw new TypeError(`endpoints: '${key}' must be written tech/resource, for example PJSIP/alice`);
      endpoints.configure(
        key.slice(0, slash),
        key.slice(slash + 1),
        farEnd === undefined ? undefined : checkFarEndConfig(farEnd, `endpoints['${key}']`),
      );
    }
    const dialplan = readDialplan(options.dialplan);
    const modules = new ModuleRegistry();
    const recordings = new RecordingStore(
      options.recordingsDir === undefined ? {} : { directory: options.recordingsDir },
    );
    const sounds = new SoundCatalogue({ ...options.sounds, recordings });
    let world: World | undefined;
    const deviceStates = new DeviceStates({ lookup: (name) => world?.channelDeviceState(name) });
    const mailboxes = new Mailboxes({ modules, deviceStates });
    this.facilities = {
      modules,
      recordings,
      sounds,
      deviceStates,
      mailboxes,
      logChannels: new LogChannels({ modules }),
      dynamicConfig: new DynamicConfig({
        mailboxes,
        modules,
        users: (options.users ?? []).map((u) => ({
          name: u.name,
          password: u.password,
          readOnly: u.readOnly ?? false,
        })),
      }),
    };
    const services: WorldServices = {
      dialplan,
      sounds,
      recordings,
      farEnd: {
        answerAfterMs:
          options.answerOutboundAfterMs === null ? undefined : (options.answerOutboundAfterMs ?? 1000),
      },
      formats: new Set([
        'ulaw',
        'alaw',
        'gsm',
        'g722',
        'g726',
        'g729',
        'ilbc',
        'slin',
        'slin16',
        'opus',
        'speex',
        'h264',
        'vp8',
        'vp9',
        'wav',
      ]),
      // Local channels' devices are not cached by the real server: every report is published.
      reportDevice: (name, state) =>
        deviceStates.report(name, state, { cachable: !name.startsWith('Local/') }),
      outbound: (kind, detail) => {
        for (const listener of this.outboundListeners) listener(kind, detail);
      },
    };
    world = new World(this.clock, this.bus, endpoints, services);
    this.world = world;
    deviceStates.onChange((state) =>
      this.bus.publish('DeviceStateChanged', { device_state: state }, { deviceName: state.name }),
    );
    for (const [name, value] of dialplan.globals) world.globals.set(name, value);
    this.driver = new SimulatorDriver(world, (listener) => this.outboundListeners.add(listener));
    const media = configureMediaSockets(world, options.mediaWebSockets ?? {});
    this.media = media;
    // DTMF played to an external media channel reaches its socket instead of a far end.
    this.outboundListeners.add((kind, detail) => {
      if (kind === 'dtmf') media.dtmfPlayed(String(detail.channelId), String(detail.digit));
    });
  }

  get channelCount(): number {
    return this.world.channels.size;
  }

  get liveRecordings(): readonly string[] {
    return [...this.world.recordings.keys()];
  }

  hasChannel(id: string): boolean {
    return this.world.channel(id) !== undefined;
  }

  get diagnostics() {
    return this.world.diagnostics;
  }

  async handle(request: SimRequest): Promise<SimResponse> {
    if (this.closed) return { status: 503, body: { message: 'The simulator was closed' } };
    // The real server parses the body before it routes (res_ari.c): an unparsable body wins.
    if (request.bodyParseError) return { status: 400, body: { message: 'Error parsing request body' } };
    const match = routeRequest(request.method, request.path);
    if ('status' in match) return { status: match.status, body: { message: match.message } };
    const read = readParams(match.op, match.pathParams, request);
    if ('refusal' in read) {
      const [status, message] =
        missingResource(match.op, match.pathParams, this.world, this.facilities) ?? read.refusal;
      return { status, body: { message } };
    }
    const handler = handlers[match.op.resource]?.[match.op.name];
    if (!handler) {
      return {
        status: 501,
        body: {
          message: `${match.op.method} ${match.op.path} (${match.op.resource}.${match.op.name}) is not simulated`,
        },
      };
    }
    try {
      return await handler({
        world: this.world,
        bus: this.bus,
        facilities: this.facilities,
        params: read.params,
        request,
      });
    } catch (error) {
      if (error instanceof SimError) {
        return { status: error.status, body: error.body ?? { message: error.message } };
      }
      // A fault in a rule must not take the server down; it answers 500 and leaves a diagnostic.
      const message = error instanceof Error ? error.message : String(error);
      this.world.log('error', `${match.op.method} ${match.op.path} failed: ${message}`);
      return { status: 500, body: { message: `Internal error in the simulator: ${message}` } };
    }
  }

  connectEvents(
    request: EventConnectionRequest,
    deliver: (event: Record<string, unknown>) => void,
  ): EventConnection | SimResponse {
    if (this.closed) return { status: 503, body: { message: 'The simulator was closed' } };
    return this.bus.connect(request, deliver);
  }

  forgetApplication(name: string): void {
    this.bus.forget(name);
  }

  knownApplications(): readonly string[] {
    return this.bus.knownApps();
  }

  servePerCall(
    app: string,
    open: (channel: { readonly id: string; readonly name: string }) => Promise<string | undefined>,
  ): () => void {
    this.world.perCallApps.set(app, (ch) => open({ id: ch.id, name: ch.name }));
    return () => {
      if (this.world.perCallApps.get(app) !== undefined) this.world.perCallApps.delete(app);
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const ch of [...this.world.channels.values()]) hangupChannel(this.world, ch, 16, 'remote');
    this.bus.closeAll();
  }
}

/**
 * Creates an in-memory server that behaves like a real one: same routes, status codes, error
 * bodies, events and event order. Reach it in process (`handle`, `connectEvents`) or wrap it in
 * the over-the-wire transport.
 *
 * @example
 * const sim = createSimulator({ clock: new VirtualClock() });
 * const events: unknown[] = [];
 * sim.connectEvents({ apps: ['demo'], subscribeAll: false }, (e) => events.push(e));
 * await sim.handle({ method: 'GET', path: '/asterisk/ping', query: {} }); // { status: 200, body: { ping: 'pong', ... } }
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new SimulatorImpl(options);
}
