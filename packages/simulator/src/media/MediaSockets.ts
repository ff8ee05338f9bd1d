import { randomUUID } from 'node:crypto';
import {
  type Channel as ChannelJson,
  type MediaFormat,
  mediaFormat,
  optimalFrameSize,
  type TimerHandle,
} from '@ringflow/client';
import type { PublishedEvent } from '../events/EventBus.ts';
import { SimError } from '../SimError.ts';
import type { SimResponse } from '../transport.ts';
import { createChannel, dialFields, hangupChannel } from '../world/channelLifecycle.ts';
import type { SimChannel } from '../world/SimChannel.ts';
import { stasisEntryFromText } from '../world/StasisEntry.ts';
import type { World } from '../world/World.ts';
import type { HeardAudio } from './HeardAudio.ts';
import type { PlayedFrame } from './PlayedFrame.ts';
import { dialMediaWebSocket, type MediaDialer, type MediaPipe } from './MediaPipe.ts';
import { MediaSession } from './MediaSession.ts';
import {
  MEDIA_CLIENT_DEFAULTS,
  type MediaWebSocketClient,
  type MediaWebSocketOptions,
} from './MediaWebSocketOptions.ts';
import { onSoundChange } from './soundChangeHook.ts';
import { parseTransportData } from './transportData.ts';

/** What `POST /channels/externalMedia` with `transport=websocket` asks for (query values as sent). */
export interface ExternalMediaWebSocketRequest {
  readonly app: string;
  readonly channelId?: string | undefined;
  readonly externalHost?: string | undefined;
  readonly encapsulation: string;
  readonly connectionType?: string | undefined;
  readonly format?: string | undefined;
  readonly direction?: string | undefined;
  readonly transportData?: string | undefined;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** An incoming media connection is refused (an HTTP answer), or taken by calling the acceptor with the connection. */
export type IncomingMediaAnswer = SimResponse | ((pipe: MediaPipe) => void);

const INTERNAL_ERROR = 'An internal error prevented this request from being handled';
const MAX_HEARD = 1000;

interface MediaChannel {
  readonly channel: SimChannel;
  readonly session: MediaSession;
  /** The UUID of an incoming-mode channel, while nobody has connected. */
  incomingId: string | undefined;
  timer: TimerHandle | undefined;
}

const registries = new WeakMap<World, MediaSockets>();

/** The media sockets of a simulator's world (made on first use). */
export function mediaSocketsOf(world: World): MediaSockets {
  let registry = registries.get(world);
  if (!registry) {
    registry = new MediaSockets(world, {});
    registries.set(world, registry);
  }
  return registry;
}

/** Gives a world its media sockets, configured. */
export function configureMediaSockets(world: World, options: MediaWebSocketOptions): MediaSockets {
  const registry = new MediaSockets(world, options);
  registries.set(world, registry);
  return registry;
}

/**
 * Media over WebSocket in the simulator (chan_websocket, ARI externalMedia with the websocket
 * transport), as recorded from a real server: the external media channels, their connections
 * in both directions, and what the callers heard of the audio applications sent.
 */
export class MediaSockets {
  private readonly byChannel = new Map<string, MediaChannel>();
  private readonly incoming = new Map<string, MediaChannel>();
  private readonly clients = new Map<string, MediaWebSocketClient>();
  /** `v()` query parameters stay on the shared client for later calls (observed). */
  private readonly stickyParams = new Map<string, readonly (readonly [string, string])[]>();
  private readonly dial: MediaDialer;
  private readonly incomingTimeoutMs: number;
  private readonly heardLog: HeardAudio[] = [];
  private readonly heardListeners = new Set<(audio: HeardAudio) => void>();
  private readonly playedListeners = new Set<(frame: PlayedFrame) => void>();
  private sequence = 0;

  constructor(
    private readonly world: World,
    options: MediaWebSocketOptions,
  ) {
    for (const client of options.clients ?? []) this.clients.set(client.id, client);
    this.dial = options.dial ?? dialMediaWebSocket;
    this.incomingTimeoutMs = options.incomingTimeoutMs ?? 30_000;
    world.bus.listen((event) => this.onEvent(event));
    onSoundChange(world, (channels) => {
      for (const ch of channels) this.byChannel.get(ch.id)?.session.soundChanged();
    });
  }

  /** Adds or replaces a `websocket_client` (as a configuration reload does). */
  configureClient(client: MediaWebSocketClient): void {
    this.clients.set(client.id, client);
    this.stickyParams.delete(client.id);
  }

  /**
   * Audio applications sent on media sockets that `channelId` heard, oldest first: one entry per
   * stretch played without a gap. Entries appear when the stretch ends (the queue ran dry, or
   * FLUSH_MEDIA).
   *
   * @example
   * await clock.advance(2000);
   * sim.media.heard('caller-1'); // [{ mediaChannelId: 'bot-1', frames: 50, startedAt, endedAt, audio, ... }]
   */
  heard(channelId: string): readonly HeardAudio[] {
    return this.heardLog.filter((h) => h.hearers.includes(channelId));
  }

  /** Called with each stretch of application audio once it has been heard (returns the remover). */
  onHeard(listener: (audio: HeardAudio) => void): () => void {
    this.heardListeners.add(listener);
    return () => this.heardListeners.delete(listener);
  }

  /**
   * Called with each frame of application audio as it plays into a call (every 20 ms of the
   * clock while a bot speaks), with who hears it: what a softphone would play live. The end of
   * each stretch (and a flush cutting it short) is told by {@link onHeard}. Returns the remover.
   *
   * @example
   * sim.media.onPlayed((f) => { if (f.hearers.includes('caller-1')) speaker.play(f.audio, f.format); });
   */
  onPlayed(listener: (frame: PlayedFrame) => void): () => void {
    this.playedListeners.add(listener);
    return () => this.playedListeners.delete(listener);
  }

  /**
   * The phone on `channelId` sends one frame of its caller's voice (`format`): the media sockets
   * of its bridge get it on their next 20 ms tick, converted to their format, as audio carried
   * from one socket to another is (a voice bot hears the caller); the tone that stands for a
   * talking caller is not added. Nothing reaches a socket while the caller's audio is muted, the
   * bridge holds, or the socket's direction is `out`. Returns the media channels it was given to.
   */
  speak(channelId: string, frame: Uint8Array, format: MediaFormat): string[] {
    const ch = this.world.channel(channelId);
    const bridge = ch?.bridgeId === undefined ? undefined : this.world.bridges.get(ch.bridgeId);
    if (!ch || !bridge || bridge.holding || ch.muted?.has('in')) return [];
    const reached: string[] = [];
    for (const id of bridge.channelIds) {
      const media = id === ch.id ? undefined : this.byChannel.get(id);
      if (!media || media.channel.muted?.has('out')) continue;
      media.session.carry(frame, format);
      reached.push(id);
    }
    return reached;
  }

  /** True while the channel is an external media channel with its socket connected. */
  isConnected(channelId: string): boolean {
    return this.byChannel.get(channelId)?.session.connected === true;
  }

  /**
   * An application connects in to `/media/<connection id>` (no credentials; the id is the only
   * protection, as on a real server): unknown id 404, a second connection 409 (observed).
   */
  acceptIncoming(connectionId: string): IncomingMediaAnswer {
    const media = this.incoming.get(connectionId);
    if (!media) return htmlRefusal(404, 'Not found', 'WebSocket instance not found.');
    if (media.session.connected) {
      return htmlRefusal(409, 'Conflict', 'Another websocket connection exists for this instance.');
    }
    return (pipe) => {
      if (media.session.connected || media.channel.destroyed) {
        pipe.close(1000);
        return;
      }
      this.world.clock.clearTimeout(media.timer);
      media.timer = undefined;
      media.session.attach(pipe);
    };
  }

  /**
   * `POST /channels/externalMedia` with `transport=websocket`: checks the request in the real
   * server's order, makes the channel (Down, `AppDial2`), and connects: out to the
   * `websocket_client` named by `external_host` (`connection_type=client`, the default), or waits
   * for the application to connect in (`server`). Returns the reply body, with `channelvars`.
   */
  createChannel(
    request: ExternalMediaWebSocketRequest,
  ): ChannelJson & { channelvars: Record<string, string> } {
    const world = this.world;
    // Observed: any value but `server` is taken as client.
    const incoming = request.connectionType === 'server';
    const host = request.externalHost || undefined;
    if (!host && !incoming) {
      throw new SimError(400, 'external_host is required for all but websocket server connections');
    }
    if (!request.format) throw new SimError(400, 'format cannot be empty');
    const direction = request.direction ?? 'both';
    if (!['both', 'in', 'out'].includes(direction)) throw new SimError(400, 'Invalid direction specified');
    if (request.encapsulation !== 'none') {
      throw new SimError(400, "encapsulation must be 'none' for websocket transport");
    }
    const client = incoming ? undefined : this.clients.get(host ?? '');
    if (!incoming && !client) {
      throw new SimError(400, 'external_host must be a valid websocket_client connection id.');
    }
    const known = world.services.formats.has(request.format) ? mediaFormat(request.format) : undefined;
    const transport = parseTransportData(request.transportData);
    if (!known || !transport || (incoming && transport.uriParams.length > 0)) {
      throw new SimError(500, INTERNAL_ERROR);
    }
    if (request.channelId !== undefined && world.channels.has(request.channelId)) {
      throw new SimError(409, 'Channel with given unique ID already exists');
    }
    const format: MediaFormat = transport.passthrough ? { kind: 'passthrough', name: known.name } : known;
    const connectionId = incoming ? randomUUID() : (client?.id ?? '');
    const where = incoming ? 'INCOMING' : connectionId;
    const address = (0x7fc05c007140 + this.sequence++ * 0x4b10).toString(16);
    const ch = createChannel(world, {
      ...(request.channelId ? { id: request.channelId } : {}),
      name: `WebSocket/${where}/0x${address}`,
      technology: 'WebSocket',
      deviceName: `WebSocket/${where}`,
      state: 'Down',
      context: 'default',
      exten: 's',
    });
    ch.idleApp = ['AppDial2', '(Outgoing Line)'];
    ch.setApp('', '');
    // The request's variables are set quietly (no ChannelVarset, observed); CALLERID() as well.
    const plainVars: [string, string][] = [];
    for (const [name, raw] of Object.entries(request.variables)) {
      const value = typeof raw === 'string' ? raw : JSON.stringify(raw);
      if (name === 'CALLERID(num)') ch.callerNumber = value;
      else if (name === 'CALLERID(name)') ch.callerName = value;
      else if (!name.includes('(')) plainVars.push([name, value]);
    }
    ch.vars ??= new Map();
    for (const [name, value] of plainVars) ch.vars.set(name, value);
    ch.vars.set('MEDIA_WEBSOCKET_CONNECTION_ID', connectionId);
    ch.vars.set('MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE', String(optimalFrameSize(format)));
    world.markPublished(ch);
    ch.dialString = request.transportData ? `${where}/${request.transportData}` : where;
    ch.afterAnswer = stasisEntryFromText(request.app, undefined);
    const app = world.bus.app(request.app);
    if (app && !app.allChannels) app.channelIds.add(ch.id);

    const channelvars: Record<string, string> = Object.fromEntries(ch.vars);
    const session = new MediaSession({
      world,
      channel: ch,
      format,
      controlFormat: transport.controlFormat ?? 'plain-text',
      connectionId,
      noAutoAnswer: transport.noAutoAnswer,
      variables: () => channelvars,
      heard: (audio) => this.recordHeard(audio),
      reached: (hearerId, frame, from) => this.byChannel.get(hearerId)?.session.carry(frame, from),
      played: (audio, hearers) => {
        if (this.playedListeners.size === 0) return;
        const played: PlayedFrame = {
          mediaChannelId: ch.id,
          hearers,
          at: world.clock.now(),
          format: format.name,
          audio,
        };
        for (const listener of this.playedListeners) listener(played);
      },
    });
    const media: MediaChannel = { channel: ch, session, incomingId: undefined, timer: undefined };
    this.byChannel.set(ch.id, media);
    const reply = { ...ch.snapshot(), channelvars };
    if (incoming) {
      media.incomingId = connectionId;
      this.incoming.set(connectionId, media);
      ch.dialing = true;
      world.publish('Dial', dialFields(ch, ''), { channels: [ch] });
      media.timer = world.clock.setTimeout(() => {
        media.timer = undefined;
        // Observed: only ChannelDestroyed, cause 19, after the dial timeout.
        ch.dialing = false;
        hangupChannel(world, ch, 19, 'none');
      }, this.incomingTimeoutMs);
    } else if (client) {
      if (transport.uriParams.length > 0) this.stickyParams.set(client.id, transport.uriParams);
      this.connectOut(media, client, 1);
    }
    return reply;
  }

  /** Dials the client; after `reconnectAttempts` failures the channel is destroyed with cause 3 (observed). */
  private connectOut(media: MediaChannel, client: MediaWebSocketClient, attempt: number): void {
    const world = this.world;
    const ch = media.channel;
    const params = this.stickyParams.get(client.id) ?? [];
    const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const uri = query === '' ? client.uri : `${client.uri}${client.uri.includes('?') ? '&' : '?'}${query}`;
    const headers: Record<string, string> = {};
    if (client.username !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${client.username}:${client.password ?? ''}`).toString('base64')}`;
    }
    this.dial({
      uri,
      protocols: client.protocols ?? MEDIA_CLIENT_DEFAULTS.protocols,
      headers,
      timeoutMs: client.connectionTimeoutMs ?? MEDIA_CLIENT_DEFAULTS.connectionTimeoutMs,
    }).then(
      (pipe) => {
        if (ch.destroyed || ch.hangingUp) {
          pipe.close(1000);
          return;
        }
        media.session.attach(pipe, () => {
          // Observed: in this mode the Dial event comes with the connection, after MEDIA_START.
          ch.dialing = true;
          world.publish('Dial', dialFields(ch, ''), { channels: [ch] });
        });
      },
      () => {
        if (ch.destroyed || ch.hangingUp) return;
        const attempts = client.reconnectAttempts ?? MEDIA_CLIENT_DEFAULTS.reconnectAttempts;
        if (attempt < attempts) {
          media.timer = world.clock.setTimeout(() => {
            media.timer = undefined;
            this.connectOut(media, client, attempt + 1);
          }, client.reconnectIntervalMs ?? MEDIA_CLIENT_DEFAULTS.reconnectIntervalMs);
          return;
        }
        hangupChannel(world, ch, 3, 'none');
      },
    );
  }

  /** DTMF played to a media channel reaches its socket as DTMF_END (observed). */
  dtmfPlayed(channelId: string, digit: string): boolean {
    const media = this.byChannel.get(channelId);
    if (!media) return false;
    media.session.dtmfEnded(digit);
    return true;
  }

  private recordHeard(audio: HeardAudio): void {
    this.heardLog.push(audio);
    if (this.heardLog.length > MAX_HEARD) this.heardLog.shift();
    for (const listener of this.heardListeners) listener(audio);
  }

  private onEvent(event: PublishedEvent): void {
    if (event.type !== 'ChannelDestroyed') return;
    const id = (event.channel as { id?: string } | undefined)?.id;
    const media = id === undefined ? undefined : this.byChannel.get(id);
    if (!media) return;
    this.byChannel.delete(media.channel.id);
    if (media.incomingId !== undefined) this.incoming.delete(media.incomingId);
    this.world.clock.clearTimeout(media.timer);
    media.timer = undefined;
    media.session.end();
  }
}

/** A refused upgrade as the real server answers it: an HTML page. */
function htmlRefusal(status: number, title: string, text: string): SimResponse {
  const body = `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\r\n<html><head>\r\n<title>${status} ${title}</title>\r\n</head><body>\r\n<h1>${title}</h1>\r\n<p>${text}</p>\r\n<hr />\r\n</body></html>\r\n`;
  return {
    status,
    binary: { contentType: 'text/html', data: new TextEncoder().encode(body) },
  };
}
