import { type Clock, ErrorCode, type RestClient, RingflowError, type TimerHandle } from '@ringflow/client';
import type { Logger } from 'pino';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { CallSession } from '../session/CallSession.ts';
import type { OwnedResource } from '../session/OwnedResources.ts';
import { askServer } from './ServerView.ts';

/**
 * How long a call waits for a server event before the watchdog asks the server (milliseconds of
 * the application's clock). A wait the server says is still under way (a long prompt still
 * playing, a phone still ringing) is asked about again after the same bound.
 */
export interface WatchdogOptions {
  /** A prompt's `PlaybackFinished`. Default 10 s (most prompts are shorter; a longer one costs one GET per 10 s). */
  readonly playbackMs?: number;
  /** A live recording's end. Default 30 s. */
  readonly recordingMs?: number;
  /**
   * A dialled channel's answer or end while it rings. Default 10 s: under a flow's own `dial`
   * safety net (its timeout plus 5 s), so an answer whose event was lost is found before the flow
   * gives up on it; a phone still ringing costs one GET per 10 s.
   */
  readonly ringingMs?: number;
  /** The end of the call's own channel, of an answered leg, of a bridge it is in. Default 60 s. */
  readonly channelMs?: number;
  /** How often the watchdog looks at the calls' waits. Default 2 s. */
  readonly sweepMs?: number;
  /** Checks in a row the server does not answer before the call is ended as failed. Default 3. */
  readonly attempts?: number;
  /**
   * Calls checked at once, at most (the others wait for the next sweep), so that a burst of calls
   * that started together never floods the server or the REST pool. Default 20.
   */
  readonly maxChecks?: number;
}

/** The watchdog's bounds, each given (see {@link WatchdogOptions}). */
export type WatchdogBounds = Required<WatchdogOptions>;

export const DEFAULT_WATCHDOG: WatchdogBounds = {
  playbackMs: 10_000,
  recordingMs: 30_000,
  ringingMs: 10_000,
  channelMs: 60_000,
  sweepMs: 2_000,
  attempts: 3,
  maxChecks: 20,
};

/**
 * The bounds of `options` over the defaults; a bound that is not a positive number is a CONFIG
 * error naming it.
 */
export function watchdogBounds(options: WatchdogOptions | undefined): WatchdogBounds {
  const bounds = { ...DEFAULT_WATCHDOG, ...options };
  for (const [name, value] of Object.entries(bounds)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new RingflowError(
        ErrorCode.CONFIG,
        `options.watchdog.${name} is ${String(value)}: give a positive number (${name.endsWith('Ms') ? 'milliseconds' : 'a count'}), or watchdog: false to turn the watchdog off.`,
      );
  }
  return bounds;
}

/** How long the watchdog lets `resource` go without its event, for the call of `channelId`. */
export function boundOf(resource: OwnedResource, channelId: string, bounds: WatchdogBounds): number {
  switch (resource.kind) {
    case 'playback':
      return bounds.playbackMs;
    case 'recording':
      return bounds.recordingMs;
    case 'channel':
      return resource.id === channelId || resource.started ? bounds.channelMs : bounds.ringingMs;
    default:
      return bounds.channelMs;
  }
}

/** In words, what a call waits for on a resource (for the log). */
export function waitOf(resource: OwnedResource, channelId: string): string {
  switch (resource.kind) {
    case 'playback':
      return `playback ${resource.id} to finish`;
    case 'recording':
      return `recording ${resource.id} to end`;
    case 'channel':
      if (resource.id === channelId) return 'its own channel to leave';
      return resource.started ? `channel ${resource.id} to hang up` : `channel ${resource.id} to answer`;
    case 'bridge':
      return `bridge ${resource.id} to close`;
    default:
      return `${resource.kind} ${resource.id}`;
  }
}

/**
 * A fixed share (0 to a quarter) of `bound` for a resource, from its id: the first deadlines of
 * calls that started together are spread over a quarter of the bound instead of all falling due
 * in one sweep (and the same id always gets the same share, so tests stay deterministic).
 */
function spreadOf(id: string, bound: number): number {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  return ((hash >>> 0) % 1024) * (bound / 4096);
}

/**
 * The waits of a call the watchdog keeps an eye on (what the server is known to have, see
 * {@link OwnedResource.confirmed}, and the call's own channel), each given its deadline the first
 * time it is seen (its bound, plus a spread of up to a quarter of it); returns those past their
 * deadline at `now`.
 */
export function overdueWaits(
  owned: readonly OwnedResource[],
  channelId: string,
  now: number,
  bounds: WatchdogBounds,
): OwnedResource[] {
  const due: OwnedResource[] = [];
  for (const resource of owned) {
    if (!resource.confirmed && resource.id !== channelId) continue;
    if (resource.checkAt === undefined) {
      const bound = boundOf(resource, channelId, bounds);
      resource.checkAt = now + bound + spreadOf(resource.id, bound);
    } else if (resource.checkAt <= now) due.push(resource);
  }
  return due;
}

/** What the watchdog needs of the application. */
export interface WatchdogHost {
  readonly clock: Clock;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  /** The calls in progress. */
  sessions(): Iterable<CallSession>;
  /**
   * The REST client of the call's server while its events flow; undefined during a gap (the
   * gap's own recovery checks the call when the stream is back).
   */
  clientOf(session: CallSession): RestClient | undefined;
}

/**
 * No wait for a server event without an end: every {@link WatchdogOptions.sweepMs} the watchdog
 * looks at what each call waits on (a playback to finish, a recording, a phone ringing, the end of
 * its own channel...) and asks the server about each wait past its bound, as a gap's recovery
 * does (`CallSession.recover`): an event that was lost is told to the machine, marked
 * `recovered`; a wait still under way is given another bound. A call whose waits the server
 * does not answer about {@link WatchdogOptions.attempts} times in a row is ended as `failed`
 * (hung up), with what it waited for in the log: it never waits forever. Costs nothing per event:
 * deadlines are set by the sweeps, on the resources a call owns.
 *
 * @example
 * const watchdog = new CallWatchdog(host, watchdogBounds({ playbackMs: 20_000 }));
 * watchdog.arm(); // a call started: the sweeps run while calls are in progress
 */
export class CallWatchdog {
  private timer: TimerHandle | undefined;
  private stopped = false;
  /** Calls with a check in flight (one at a time per call). */
  private readonly checking = new Set<CallSession>();
  /** Checks in a row the server did not answer, per call. */
  private readonly failures = new WeakMap<CallSession, number>();
  /** Calls past a watchdog whose state the server has not told yet (the gauge). */
  private readonly overdue = new Set<CallSession>();

  constructor(
    private readonly host: WatchdogHost,
    private readonly bounds: WatchdogBounds,
  ) {}

  /** Calls are in progress: the sweeps run (until none is left). */
  arm(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = this.host.clock.setTimeout(() => this.sweep(), this.bounds.sweepMs);
  }

  /** No call is left: no sweep until the next one starts (no timer left behind). */
  idle(): void {
    if (this.timer !== undefined) this.host.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Stops the sweeps (the application stops). */
  stop(): void {
    this.stopped = true;
    this.idle();
  }

  private sweep(): void {
    this.timer = undefined;
    const now = this.host.clock.now();
    let calls = 0;
    for (const session of this.host.sessions()) {
      calls++;
      if (session.ended || !session.machine || this.checking.has(session)) continue;
      const due = overdueWaits(session.ownedNow(), session.channelId, now, this.bounds);
      if (due.length === 0 || this.checking.size >= this.bounds.maxChecks) continue;
      const client = this.host.clientOf(session);
      if (client) void this.check(session, due, client);
    }
    this.host.metrics.callsOverdue.set(this.overdue.size);
    if (calls > 0) this.arm();
  }

  private async check(
    session: CallSession,
    due: readonly OwnedResource[],
    client: RestClient,
  ): Promise<void> {
    this.checking.add(session);
    this.overdue.add(session);
    const waits = due.map((r) => waitOf(r, session.channelId));
    try {
      const recovery = await session.recover(askServer(client), due, 'watchdog');
      this.failures.delete(session);
      this.overdue.delete(session);
      const now = this.host.clock.now();
      for (const r of recovery.present) r.checkAt = now + boundOf(r, session.channelId, this.bounds);
      this.host.metrics.watchdogChecks.inc({ result: recovery.told.length > 0 ? 'recovered' : 'present' });
      if (recovery.told.length > 0)
        session.callLogger.warn(
          { waitedFor: waits, recovered: recovery.told },
          'call waited past its watchdog: its event was lost, the server told what happened',
        );
    } catch (error) {
      if (session.ended) return;
      const failed = (this.failures.get(session) ?? 0) + 1;
      this.failures.set(session, failed);
      this.host.metrics.watchdogChecks.inc({ result: 'failed' });
      if (failed < this.bounds.attempts) {
        session.callLogger.warn(
          { waitedFor: waits, err: error, attempt: failed, of: this.bounds.attempts },
          'call waits past its watchdog and the server could not be asked; asking again',
        );
        return;
      }
      this.failures.delete(session);
      this.overdue.delete(session);
      session.callLogger.error(
        { waitedFor: waits, err: error, attempts: failed },
        'call waits past its watchdog and the server could not tell its state: ending it as failed (hung up)',
      );
      session.end('failed', true);
    } finally {
      this.checking.delete(session);
      this.host.metrics.callsOverdue.set(this.overdue.size);
    }
  }
}
