import type { Clock, TimerHandle } from '@ringflow/client';

/** What a cancelled effect "returns": it never ran, and nothing is reported. */
const CANCELLED: unique symbol = Symbol('cancelled');

/** The part of an actor an effect reports to: XState's `self` in an action. */
export interface EffectTarget {
  send(event: { readonly type: string; readonly [key: string]: unknown }): void;
  getSnapshot(): { readonly status: string };
}

/**
 * One place in a compiled machine that runs an effect or a timer: its slot in the runner, and
 * the event types it reports with (made once, at compile time, not per event).
 */
export interface EffectSite {
  readonly slot: number;
  /** `flow.effect.done.e<slot>`: the effect succeeded (`output`). */
  readonly done: string;
  /** `flow.effect.error.e<slot>`: the effect failed (`error`). */
  readonly error: string;
  /** `flow.timer.t<slot>`: the timer fired. */
  readonly timer: string;
}

/**
 * The site with this slot number (one per effect or timer of a machine, numbered from 0).
 * @example effectSite(3).done // 'flow.effect.done.e3'
 */
export function effectSite(slot: number): EffectSite {
  return {
    slot,
    done: `flow.effect.done.e${slot}`,
    error: `flow.effect.error.e${slot}`,
    timer: `flow.timer.t${slot}`,
  };
}

/**
 * Runs the effects (REST calls, webhooks) of one running flow machine and reports each one's
 * result back to the machine as an event, `flow.effect.done.e<slot>` with `output` or
 * `flow.effect.error.e<slot>` with `error` (the shape of XState's own done/error events); and its
 * timers (`after`), which report `flow.timer.t<slot>`.
 *
 * Why not one XState promise actor per effect: every step of every call spawned a child actor
 * (actor, system registration, an AbortController, a DOMException on stop). In load profiles
 * that was the largest single cost of a flow call. An effect is a promise started by an entry
 * action; leaving the state cancels it, so its late result is dropped, as a stopped actor's is.
 * Slots are array indexes (a machine has a handful): one small array per call, not two Maps.
 *
 * One runner per machine instance (it lives in the flow's context), so a subflow has its own.
 *
 * @example
 * const site = effectSite(3);
 * runner.start(site, () => ari.channels.answer({ channelId }), self); // later: { type: site.done, output }
 * runner.cancel(site); // on exit: a result still on its way is dropped
 */
export class EffectRunner {
  private tickets = 0;
  /** The ticket of the effect running in each slot; a result whose ticket is not current is dropped. */
  private readonly running: (number | undefined)[] = [];
  /** Timers running, by slot (see {@link startTimer}); made with the first timer. */
  private timers: ({ clock: Clock; handle: TimerHandle } | undefined)[] | undefined;

  /**
   * Starts `work` for the state at `site`. `reportDone` says which results the machine wants to
   * hear about (an effect whose success nothing waits for is not reported: each event costs the
   * machine a macrostep); failures are always reported.
   */
  start(
    site: EffectSite,
    work: () => Promise<unknown>,
    target: EffectTarget,
    reportDone: (output: unknown) => boolean = () => true,
  ): void {
    const { slot } = site;
    const ticket = ++this.tickets;
    this.running[slot] = ticket;
    const report = (event: { type: string; output?: unknown; error?: unknown }): void => {
      if (this.running[slot] !== ticket) return;
      this.running[slot] = undefined;
      // A machine that finished or was stopped meanwhile takes no more events.
      if (target.getSnapshot().status === 'active') target.send(event);
    };
    // Started a microtask later, once the transition that entered the state has been taken (the
    // work may itself send events to the machine); a state left in that same transition (an
    // eventless exit) never starts its effect, as XState never starts such an invoked actor.
    Promise.resolve()
      .then(() => (this.running[slot] === ticket ? work() : CANCELLED))
      .then(
        (output) => {
          if (output === CANCELLED) return;
          if (reportDone(output)) report({ type: site.done, output });
          else if (this.running[slot] === ticket) this.running[slot] = undefined;
        },
        (error: unknown) => report({ type: site.error, error }),
      );
  }

  /**
   * Starts a timer for the state at `site` on `clock`: after `delayMs` the machine gets
   * `site.timer` (XState's `after`, without its scheduler: a scheduled event, its id and a copy
   * of the system's scheduled-event table per timer). Leaving the state cancels it.
   */
  startTimer(site: EffectSite, delayMs: number, clock: Clock, target: EffectTarget): void {
    this.cancelTimer(site);
    this.timers ??= [];
    const timers = this.timers;
    const { slot } = site;
    const handle = clock.setTimeout(() => {
      timers[slot] = undefined;
      if (target.getSnapshot().status === 'active') target.send({ type: site.timer });
    }, delayMs);
    timers[slot] = { clock, handle };
  }

  cancelTimer(site: EffectSite): void {
    const timer = this.timers?.[site.slot];
    if (!timer) return;
    this.timers![site.slot] = undefined;
    timer.clock.clearTimeout(timer.handle);
  }

  /** The state that started the effect at `site` was left: its result, if it comes, is dropped. */
  cancel(site: EffectSite): void {
    this.running[site.slot] = undefined;
  }

  /** Effects and timers still running (for leak checks and tests). */
  get pending(): number {
    let count = 0;
    for (const ticket of this.running) if (ticket !== undefined) count++;
    for (const timer of this.timers ?? []) if (timer !== undefined) count++;
    return count;
  }
}
