import { PROMPT_1, PROMPT_2_SOUND } from '../ivr/ivrWorkload.ts';

/** One line of the timeline: time (ms), kind, the event's type or the request's method, its channel or target. */
export type TimelineEntry = [at: number, kind: 'event' | 'request' | 'reply', what: string, about: string];

/** Event types after which the IVR sends a request: the call arrived, a key, a prompt ended. */
const TRIGGERS = new Set(['StasisStart', 'ChannelDtmfReceived', 'PlaybackFinished']);

/** The channel an ARI event is about: its `channel`, or the channel a playback plays to. */
export function channelOfEvent(event: {
  readonly channel?: { readonly id?: string };
  readonly playback?: { readonly target_uri?: string };
}): string | undefined {
  if (event.channel?.id !== undefined) return event.channel.id;
  const target = event.playback?.target_uri;
  return target?.startsWith('channel:') ? target.slice('channel:'.length) : undefined;
}

/**
 * The channel of a request an event triggers in the IVR, or undefined for requests that follow
 * a REST reply instead (prompt 1 is played once `answer` returns) or that concern no channel.
 * `target` is the path, with or without the interface root, and its query (or the media text).
 * Event-triggered: answer (StasisStart), play of prompt 2 (the second digit, or prompt 1's end),
 * hang up (prompt 2's end).
 */
export function triggeredChannel(method: string, target: string): string | undefined {
  const match = /\/channels\/([^/?]+)(\/[^?]*)?/.exec(target);
  if (!match) return undefined;
  const channelId = decodeURIComponent(match[1]!);
  const sub = match[2] ?? '';
  if (method === 'POST' && sub === '/answer') return channelId;
  if (method === 'POST' && sub.startsWith('/play') && target.includes(PROMPT_2_SOUND)) return channelId;
  if (method === 'DELETE' && sub === '') return channelId;
  return undefined;
}

/**
 * Measures, inside an application, the time from receiving the event that triggers an action to
 * sending the REST request for it: each application reports when a frame arrives, which call a
 * triggering event is about, and each request as it is handed to the HTTP layer. Also counts
 * the calls that heard prompt 1 to the end (the bench waits for them before weighing the app).
 *
 * @example
 * ws.on('message', (data) => { probe.frameArrived(); const e = JSON.parse(data); probe.event(e); ... });
 * probe.request('POST', `/channels/${id}/answer`);
 */
export class LatencyProbe {
  private frameAt = 0;
  /**
   * BENCH_TIMELINE=<dir>: every event, request and reply of the measuring window with its time,
   * written when the window closes (`bench/profile/callTimeline.ts` reads it); undefined otherwise.
   */
  timeline: TimelineEntry[] | undefined;
  private readonly lastTrigger = new Map<string, number>();
  private samples: number[] = [];
  /** PlaybackFinished events of prompt 1 received so far. */
  prompt1Finished = 0;

  /** A WebSocket frame arrived; call before parsing it. */
  frameArrived(at = performance.now()): void {
    this.frameAt = at;
  }

  /** An event was received (during the handling of the frame that carried it). */
  event(event: {
    readonly type?: string;
    readonly channel?: { readonly id?: string };
    readonly playback?: { readonly target_uri?: string; readonly media_uri?: string };
  }): void {
    const type = event.type ?? '';
    this.timeline?.push([this.frameAt, 'event', type, channelOfEvent(event) ?? '']);
    if (type === 'StasisEnd') {
      const id = channelOfEvent(event);
      if (id !== undefined) this.lastTrigger.delete(id);
      return;
    }
    if (!TRIGGERS.has(type)) return;
    const id = channelOfEvent(event);
    if (id !== undefined) this.lastTrigger.set(id, this.frameAt);
    if (type === 'PlaybackFinished' && event.playback?.media_uri === PROMPT_1) this.prompt1Finished++;
  }

  /** A request is being sent: `target` is its path and query. */
  request(method: string, target: string): void {
    this.timeline?.push([performance.now(), 'request', method, target]);
    const id = triggeredChannel(method, target);
    if (id === undefined) return;
    const at = this.lastTrigger.get(id);
    if (at !== undefined) this.samples.push(performance.now() - at);
  }

  /** A request's reply arrived (for the timeline only). */
  replied(method: string, target: string): void {
    this.timeline?.push([performance.now(), 'reply', method, target]);
  }

  /** The latencies (ms) gathered since the last call, and starts a new window. */
  takeSamples(): number[] {
    const taken = this.samples;
    this.samples = [];
    return taken;
  }

  /** Calls the probe still remembers (leak check: 0 once every call has ended). */
  get tracked(): number {
    return this.lastTrigger.size;
  }
}
