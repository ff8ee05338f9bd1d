import type { PublishedEvent, Simulator, SimulatorDriver } from '@ringflow/simulator';
import { CALLED_HALF_APP, CALLER_DIGITS, DIGIT_MS, IVR_APP, PROMPT_1, PROMPT_2 } from '../ivr/ivrWorkload.ts';

/** One caller the generator placed. */
interface Caller {
  readonly placedAt: number;
  /** Held callers wait for `release()` before pressing their digits. */
  held: boolean;
  prompt1Finished: boolean;
  prompt2Finished: boolean;
}

/** What the generator has seen so far; `completed` and `failed` only grow. */
export interface LoadCounts {
  /** Calls placed. */
  readonly placed: number;
  /** Calls that went through the whole IVR (prompt 2 played to the end) and were hung up by the app. */
  readonly completed: number;
  /** Calls that ended any other way. */
  readonly failed: number;
  /** Calls in progress. */
  readonly inFlight: number;
  /** Sum of the wall-clock lengths (placed to destroyed) of the completed calls, in milliseconds. */
  readonly completedMs: number;
  /** Wall time of the reading (`performance.now()` of the simulator process). */
  readonly at: number;
}

/** Calls placed per turn of the event loop, so the simulator keeps answering requests while it ramps up. */
const PLACE_BATCH = 100;
/**
 * Most held calls still on their way to the digit prompt at once. Placing 10,000 calls in one
 * burst would queue 10,000 requests in the application's connection pool, past any sane REST
 * timeout; real calls arrive spread over time.
 */
const RAMP_WINDOW = 500;

/** The channel a playback plays to (`channel:<id>` target), and its media. */
function playbackOf(event: PublishedEvent): { channelId: string | undefined; media: string | undefined } {
  const playback = event.playback as { target_uri?: string; media_uri?: string } | undefined;
  const target = playback?.target_uri;
  return {
    channelId: target?.startsWith('channel:') ? target.slice('channel:'.length) : undefined,
    media: playback?.media_uri,
  };
}

function channelIdOf(event: PublishedEvent): string | undefined {
  return (event.channel as { id?: string } | undefined)?.id;
}

/** The id of a call's ;2 half (B), which runs the dialplan, from its ;1 half's (A). */
const calledHalf = (channelId: string) => `${channelId}-b`;

/**
 * Callers for the IVR benchmark, beside the simulator, placing each call as a real server's
 * recorded bench call was (`test/simulator/fixtures/bench-ivr-call.jsonl`): `POST /channels`
 * with `endpoint=Local/s@stasis-ivr&app=<IVR_APP>&channelId=A&otherChannelId=B`. Half A enters
 * the application; half B runs the dialplan (`NoOp`, `Stasis(demo-app)`) and is answered there
 * by the generator's own demo-app connection; the application receives 22 events per call
 * (both halves' dialplan, `Dial`, state and hangup events besides its own). Once prompt 1
 * has ended (however long prompts are), the caller sends its key on B (`POST /channels/B/dtmf`,
 * {@link DIGIT_MS} ms), heard on A, then waits for the application to hang up. A call ends when B is destroyed (its last event).
 *
 * Two modes: `hold(n)` places n calls whose callers stay silent until `release()` (every call
 * then sits at the digit prompt, so the application can be weighed with n calls in progress);
 * `keep(n)` keeps n calls in flight, placing a new call each time one ends (closed loop), with
 * at most the `release` cap of callers active, the others held at the digit prompt.
 *
 * @example
 * const load = new IvrLoadGenerator(sim);
 * await load.hold(1000); // 1000 calls waiting for digits
 * load.release();
 * load.keep(1000);
 */
export class IvrLoadGenerator {
  private readonly callers = new Map<string, Caller>();
  private readonly driver: SimulatorDriver;
  private sequence = 0;
  private placed = 0;
  private completed = 0;
  private failed = 0;
  private completedMs = 0;
  /** Calls the closed loop keeps in flight; 0 when it does not replace ended calls. */
  private target = 0;
  private toPlace = 0;
  private placing = false;
  private heldWaiting = 0;
  private heldGoal = 0;
  private heldToPlace = 0;
  private onAllHeld: (() => void) | undefined;
  /** Held callers, oldest first, from `heldNext` on; released in this order. */
  private readonly heldQueue: string[] = [];
  private heldNext = 0;
  /** Callers pressing or about to press their digits (not held), calls not yet ended. */
  private active = 0;
  /** Most active callers at once; the other calls in flight wait, held, at the digit prompt. */
  private activeCap = Number.POSITIVE_INFINITY;
  private readonly idleWaiters = new Set<() => void>();
  readonly failures: string[] = [];

  constructor(private readonly sim: Simulator) {
    this.driver = sim.driver;
    this.driver.onEvent((event) => this.onEvent(event));
    // demo-app, where each call's B half goes from the dialplan: it answers B, a moment later
    // (as a remote application would; answering inside the event's delivery would reorder it).
    const answer = (id: string) =>
      void sim.handle({ method: 'POST', path: `/channels/${id}/answer`, query: {} });
    const connection = sim.connectEvents({ apps: [CALLED_HALF_APP], subscribeAll: false }, (event) => {
      const id = (event.channel as { id?: string } | undefined)?.id;
      if (event.type === 'StasisStart' && id !== undefined) setTimeout(answer, 0, id);
    });
    if ('status' in connection) throw new Error(`demo-app connection: ${JSON.stringify(connection.body)}`);
  }

  counts(): LoadCounts {
    return {
      placed: this.placed,
      completed: this.completed,
      failed: this.failed,
      inFlight: this.callers.size,
      completedMs: this.completedMs,
      at: performance.now(),
    };
  }

  /**
   * Places `calls` calls whose callers stay silent, at most {@link RAMP_WINDOW} on their way to
   * the digit prompt at a time; resolves once every one has heard prompt 1 to the end (or ended).
   */
  hold(calls: number): Promise<void> {
    this.heldGoal = calls;
    this.heldWaiting = 0;
    const done = new Promise<void>((resolve) => {
      this.onAllHeld = resolve;
    });
    this.heldToPlace = calls;
    this.activeCap = 0;
    this.rampHeld();
    return done;
  }

  /** Places held calls until RAMP_WINDOW of them are on their way to the digit prompt. */
  private rampHeld(): void {
    const settingUp = this.heldGoal - this.heldToPlace - this.heldWaiting;
    const n = Math.min(this.heldToPlace, RAMP_WINDOW - settingUp);
    if (n <= 0) return;
    this.heldToPlace -= n;
    this.place(n);
  }

  private heldReady(): void {
    this.heldWaiting++;
    if (this.heldWaiting === this.heldGoal) this.onAllHeld?.();
    else if (this.heldToPlace > 0) this.rampHeld();
  }

  /**
   * Held callers press their digits, oldest first, at most `activeCap` callers active at a time
   * (the others are released as active calls end). Default: all of them.
   */
  release(activeCap = Number.POSITIVE_INFINITY): void {
    this.activeCap = activeCap;
    this.releaseHeld();
  }

  private releaseHeld(): void {
    while (this.active < this.activeCap && this.heldNext < this.heldQueue.length) {
      const id = this.heldQueue[this.heldNext++]!;
      const caller = this.callers.get(id);
      if (!caller?.held) continue;
      caller.held = false;
      this.active++;
      if (caller.prompt1Finished) this.press(id);
    }
    if (this.heldNext > 4096 && this.heldNext * 2 > this.heldQueue.length) {
      this.heldQueue.splice(0, this.heldNext);
      this.heldNext = 0;
    }
  }

  /**
   * Keeps `calls` calls in flight from now on: each call that ends is replaced by a new one. New
   * calls wait, held at the digit prompt, while `activeCap` callers are already active (released
   * oldest first), so 10,000 calls can be in progress with a sustainable request rate, as when
   * most callers are listening to a prompt.
   */
  keep(calls: number): void {
    this.target = calls;
    const missing = calls - this.callers.size - this.toPlace;
    if (missing > 0) this.place(missing);
  }

  /** Stops replacing calls; resolves when no call is left, or after `timeoutMs` with the stuck ones counted as failed. */
  async stop(timeoutMs: number): Promise<{ stuck: number }> {
    this.target = 0;
    this.toPlace = 0;
    this.release();
    if (this.callers.size === 0) return { stuck: 0 };
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<boolean>((resolve) => this.idleWaiters.add(() => resolve(true)));
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const finished = await Promise.race([idle, late]);
    clearTimeout(timer);
    this.idleWaiters.clear();
    if (finished) return { stuck: 0 };
    const stuck = this.callers.size;
    for (const id of [...this.callers.keys()]) {
      this.failures.push(`${id}: still in progress ${timeoutMs} ms after the load stopped`);
      this.failed++;
      this.callers.delete(id);
      try {
        this.driver.hangup(id);
      } catch {
        // Already gone: nothing to clean up.
      }
    }
    return { stuck };
  }

  private place(count: number): void {
    this.toPlace += count;
    if (this.placing) return;
    this.placing = true;
    const batch = () => {
      const n = Math.min(PLACE_BATCH, this.toPlace);
      this.toPlace -= n;
      for (let i = 0; i < n; i++) this.placeOne();
      // New calls join the queue of held callers; release the oldest while the cap allows.
      this.releaseHeld();
      if (this.toPlace > 0) setImmediate(batch);
      else this.placing = false;
    };
    setImmediate(batch);
  }

  /** Places one call; its caller is held until released (see releaseHeld). */
  private placeOne(): void {
    const seq = this.sequence++;
    const channelId = `caller-${seq}`;
    this.callers.set(channelId, {
      placedAt: performance.now(),
      held: true,
      prompt1Finished: false,
      prompt2Finished: false,
    });
    this.placed++;
    this.heldQueue.push(channelId);
    void this.sim
      .handle({
        method: 'POST',
        path: '/channels',
        query: {
          endpoint: 'Local/s@stasis-ivr',
          app: IVR_APP,
          channelId,
          otherChannelId: calledHalf(channelId),
        },
      })
      .then((response) => {
        if (response.status !== 200 && this.failures.length < 20)
          this.failures.push(`${channelId}: originate ${response.status} ${JSON.stringify(response.body)}`);
      });
  }

  /** The caller's key, sent on B and heard on A. */
  private press(channelId: string): void {
    void this.sim.handle({
      method: 'POST',
      path: `/channels/${calledHalf(channelId)}/dtmf`,
      query: { dtmf: CALLER_DIGITS, duration: String(DIGIT_MS), between: '0' },
    });
  }

  private onEvent(event: PublishedEvent): void {
    switch (event.type) {
      case 'PlaybackFinished': {
        const { channelId, media } = playbackOf(event);
        const caller = channelId === undefined ? undefined : this.callers.get(channelId);
        if (!caller) return;
        if (media === PROMPT_1 && !caller.prompt1Finished) {
          caller.prompt1Finished = true;
          // The key comes once prompt 1 has ended, as in the recorded call (no barge-in).
          if (!caller.held) this.press(channelId!);
          else if (this.heldGoal > 0 && this.heldWaiting < this.heldGoal) this.heldReady();
        }
        if (media === PROMPT_2) caller.prompt2Finished = true;
        return;
      }
      case 'ChannelDestroyed': {
        const halfB = channelIdOf(event);
        if (!halfB?.endsWith('-b')) return;
        const channelId = halfB.slice(0, -2);
        const caller = this.callers.get(channelId);
        if (!caller) return;
        this.callers.delete(channelId!);
        if (!caller.held) this.active--;
        else if (!caller.prompt1Finished && this.heldWaiting < this.heldGoal) this.heldReady();
        if (caller.prompt2Finished) {
          this.completed++;
          this.completedMs += performance.now() - caller.placedAt;
        } else {
          this.failed++;
          if (this.failures.length < 20)
            this.failures.push(
              `${channelId}: ended before prompt 2 finished (cause ${String(event.cause_txt ?? event.cause)})`,
            );
        }
        if (this.target > 0) this.place(1);
        this.releaseHeld();
        if (this.target === 0 && this.callers.size === 0) for (const wake of this.idleWaiters) wake();
        return;
      }
      default:
        return;
    }
  }
}
