import type { Clock } from '@ringflow/client';
import type { InProcessRequest, InProcessResponse, InProcessServer } from '../inProcess/InProcessServer.ts';

/**
 * A deliberately small fake of an ARI server for the runtime's unit tests: channels that enter an
 * application, playbacks and recordings that take time on the clock, bridges, DTMF, hangups,
 * user events. It answers with the statuses and error bodies a real server uses. Scenario tests
 * run on the real simulator (`@ringflow/simulator`); this fake only pins the runtime's own rules.
 */
export class FakeAriServer implements InProcessServer {
  readonly requests: { method: string; path: string; query: Record<string, string>; body?: unknown }[] = [];
  readonly channels = new Map<string, { app: string; state: string; bridge?: string }>();
  readonly bridges = new Map<string, Set<string>>();
  /** How long every playback lasts. */
  playbackMs = 1000;
  /** Originated channels answer after this long; null: never (they ring until `timeout`). */
  answerAfterMs: number | null = 100;
  private readonly listeners = new Set<{
    apps: readonly string[];
    deliver: (e: Record<string, unknown>) => void;
  }>();
  private readonly playbacks = new Map<string, { target: string; timer: unknown; media: string }>();
  private readonly recordings = new Map<string, { channel: string; timer: unknown }>();
  private readonly clock: Clock;
  private readonly bridgeBusyUntil = new Map<string, number>();
  readonly asteriskId: string;

  constructor(clock: Clock, asteriskId = '02:fa:ce:00:00:01') {
    this.clock = clock;
    this.asteriskId = asteriskId;
  }

  connectEvents(request: { apps: readonly string[] }, deliver: (e: Record<string, unknown>) => void) {
    const listener = { apps: request.apps, deliver };
    this.listeners.add(listener);
    return { close: () => this.listeners.delete(listener) };
  }

  /** Number of open event connections. */
  get connections(): number {
    return this.listeners.size;
  }

  private emit(app: string, type: string, fields: Record<string, unknown>): void {
    const event = {
      type,
      timestamp: new Date(this.clock.now()).toISOString(),
      application: app,
      asterisk_id: this.asteriskId,
      ...fields,
    };
    for (const l of this.listeners) if (l.apps.includes(app)) l.deliver(event);
  }

  private snapshot(id: string) {
    const c = this.channels.get(id);
    return {
      id,
      name: `PJSIP/${id}`,
      state: c?.state ?? 'Down',
      language: 'en',
      dialplan: { context: 'default', exten: 's', priority: 1 },
    };
  }

  /** A call arrives and enters `app` with arguments. */
  placeCall(id: string, app: string, args: string[] = []): void {
    this.channels.set(id, { app, state: 'Ring' });
    this.emit(app, 'StasisStart', { args, channel: this.snapshot(id) });
  }

  pressDigit(id: string, digit: string): void {
    const c = this.channels.get(id);
    if (c) this.emit(c.app, 'ChannelDtmfReceived', { digit, duration_ms: 100, channel: this.snapshot(id) });
  }

  /** The caller hangs up. */
  hangupCall(id: string, cause = 16): void {
    const c = this.channels.get(id);
    if (!c) return;
    this.channels.delete(id);
    for (const [pid, pb] of this.playbacks) {
      if (pb.target === `channel:${id}`) {
        this.clock.clearTimeout(pb.timer as never);
        this.playbacks.delete(pid);
        this.emit(c.app, 'PlaybackFinished', {
          playback: { id: pid, media_uri: pb.media, target_uri: pb.target, state: 'done' },
        });
      }
    }
    for (const [name, rec] of this.recordings) {
      if (rec.channel === id) {
        this.clock.clearTimeout(rec.timer as never);
        this.recordings.delete(name);
        this.emit(c.app, 'RecordingFinished', {
          recording: { name, format: 'wav', state: 'done', target_uri: `channel:${id}` },
        });
      }
    }
    if (c.bridge) {
      this.bridges.get(c.bridge)?.delete(id);
      this.emit(c.app, 'ChannelLeftBridge', { bridge: { id: c.bridge }, channel: this.snapshot(id) });
    }
    this.emit(c.app, 'StasisEnd', { channel: this.snapshot(id) });
    this.emit(c.app, 'ChannelDestroyed', { cause, cause_txt: 'Normal Clearing', channel: this.snapshot(id) });
  }

  async handle(req: InProcessRequest): Promise<InProcessResponse> {
    this.requests.push({
      method: req.method,
      path: req.path,
      query: { ...req.query },
      ...(req.body === undefined ? {} : { body: req.body }),
    });
    const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
    const notFound = (what: string) => ({ status: 404, body: { message: `${what} not found` } });
    const [resource, id, action, sub] = parts;
    const q = req.query;
    if (req.method === 'GET' && resource === 'asterisk' && id === 'ping') {
      return {
        status: 200,
        body: {
          asterisk_id: this.asteriskId,
          ping: 'pong',
          timestamp: new Date(this.clock.now()).toISOString(),
        },
      };
    }
    if (resource === 'channels') {
      if (req.method === 'GET' && id === undefined)
        return { status: 200, body: [...this.channels.keys()].map((c) => this.snapshot(c)) };
      if (
        req.method === 'POST' &&
        (id === undefined || action === undefined) &&
        !this.channels.has(id ?? '')
      ) {
        const channelId = id ?? q.channelId ?? `fake-${this.channels.size}`;
        const app = q.app ?? '';
        this.channels.set(channelId, { app, state: 'Down' });
        if (this.answerAfterMs !== null) {
          this.clock.setTimeout(() => {
            const c = this.channels.get(channelId);
            if (!c) return;
            c.state = 'Up';
            this.emit(app, 'StasisStart', {
              args: q.appArgs ? q.appArgs.split(',') : [],
              channel: this.snapshot(channelId),
            });
          }, this.answerAfterMs);
        } else {
          this.clock.setTimeout(() => this.hangupCall(channelId, 19), Number(q.timeout ?? 30) * 1000);
        }
        return { status: 200, body: this.snapshot(channelId) };
      }
      const c = this.channels.get(id ?? '');
      if (!c) return notFound('Channel');
      const channelId = id!;
      if (req.method === 'DELETE' && action === undefined) {
        this.hangupCall(channelId);
        return { status: 204 };
      }
      if (action === 'answer') {
        c.state = 'Up';
        return { status: 204 };
      }
      if (action === 'continue') {
        this.channels.delete(channelId);
        this.emit(c.app, 'StasisEnd', { channel: this.snapshot(channelId) });
        return { status: 204 };
      }
      if (action === 'play' && sub) {
        const media = q.media ?? '';
        const target = `channel:${channelId}`;
        const timer = this.clock.setTimeout(() => {
          this.playbacks.delete(sub);
          this.emit(c.app, 'PlaybackFinished', {
            playback: { id: sub, media_uri: media, target_uri: target, state: 'done' },
          });
        }, this.playbackMs);
        this.playbacks.set(sub, { target, timer, media });
        this.emit(c.app, 'PlaybackStarted', {
          playback: { id: sub, media_uri: media, target_uri: target, state: 'playing' },
        });
        return { status: 201, body: { id: sub, media_uri: media, target_uri: target, state: 'queued' } };
      }
      if (action === 'record') {
        const name = q.name ?? '';
        const seconds = Number(q.maxDurationSeconds ?? 10) || 10;
        const timer = this.clock.setTimeout(() => {
          this.recordings.delete(name);
          this.emit(c.app, 'RecordingFinished', {
            recording: {
              name,
              format: q.format,
              state: 'done',
              target_uri: `channel:${channelId}`,
              duration: seconds,
            },
          });
        }, seconds * 1000);
        this.recordings.set(name, { channel: channelId, timer });
        this.emit(c.app, 'RecordingStarted', {
          recording: { name, format: q.format, state: 'recording', target_uri: `channel:${channelId}` },
        });
        return {
          status: 201,
          body: { name, format: q.format, state: 'queued', target_uri: `channel:${channelId}` },
        };
      }
      if (action === 'variable') return { status: 204 };
      return { status: 204 };
    }
    if (resource === 'playbacks' && req.method === 'DELETE') {
      const pb = this.playbacks.get(id ?? '');
      if (!pb) return notFound('Playback');
      this.clock.clearTimeout(pb.timer as never);
      this.playbacks.delete(id!);
      const app = this.channels.get(pb.target.slice('channel:'.length))?.app ?? '';
      this.emit(app, 'PlaybackFinished', {
        playback: { id, media_uri: pb.media, target_uri: pb.target, state: 'done' },
      });
      return { status: 204 };
    }
    if (resource === 'bridges') {
      if (req.method === 'GET' && id === undefined)
        return {
          status: 200,
          body: [...this.bridges.keys()].map((b) => ({ id: b, channels: [...this.bridges.get(b)!] })),
        };
      if (req.method === 'POST' && action === undefined) {
        const bridgeId = id ?? q.bridgeId ?? `bridge-${this.bridges.size}`;
        this.bridges.set(bridgeId, new Set());
        return { status: 200, body: { id: bridgeId, bridge_type: 'mixing', channels: [] } };
      }
      const members = this.bridges.get(id ?? '');
      if (!members) return notFound('Bridge');
      if (req.method === 'DELETE' && action === undefined) {
        this.bridges.delete(id!);
        for (const ch of members) {
          const c = this.channels.get(ch);
          if (c) delete c.bridge;
        }
        this.emit(this.firstApp(), 'BridgeDestroyed', { bridge: { id, channels: [] } });
        return { status: 204 };
      }
      if (action === 'play' && sub) {
        // Bridge playbacks queue: each starts when the one before it finished.
        const media = q.media ?? '';
        const target = `bridge:${id}`;
        const app = this.firstApp();
        const startAt = Math.max(this.clock.now(), this.bridgeBusyUntil.get(id!) ?? 0);
        this.bridgeBusyUntil.set(id!, startAt + this.playbackMs);
        const playback = (state: string) => ({
          playback: { id: sub, media_uri: media, target_uri: target, state },
        });
        this.clock.setTimeout(
          () => this.emit(app, 'PlaybackStarted', playback('playing')),
          startAt - this.clock.now(),
        );
        this.clock.setTimeout(
          () => this.emit(app, 'PlaybackFinished', playback('done')),
          startAt + this.playbackMs - this.clock.now(),
        );
        return { status: 201, body: { id: sub, media_uri: media, target_uri: target, state: 'queued' } };
      }
      if (action === 'addChannel') {
        for (const ch of (q.channel ?? '').split(',')) {
          const c = this.channels.get(ch);
          if (!c) return { status: 422, body: { message: 'Channel not found' } };
          members.add(ch);
          c.bridge = id!;
          this.emit(c.app, 'ChannelEnteredBridge', {
            bridge: { id, channels: [...members] },
            channel: this.snapshot(ch),
          });
        }
        return { status: 204 };
      }
      return { status: 204 };
    }
    if (resource === 'events' && id === 'user') {
      const name = action ?? '';
      const source = (q.source ?? '').split(',').find((s) => s.startsWith('channel:'));
      const channelId = source?.slice('channel:'.length);
      const body = (req.body ?? {}) as { variables?: unknown };
      this.emit(q.application ?? '', 'ChannelUserevent', {
        eventname: name,
        userevent: body.variables ?? {},
        ...(channelId && this.channels.has(channelId) ? { channel: this.snapshot(channelId) } : {}),
      });
      return { status: 204 };
    }
    return { status: 404, body: { message: 'Resource not found' } };
  }

  private firstApp(): string {
    for (const l of this.listeners) return l.apps[0] ?? '';
    return '';
  }
}
