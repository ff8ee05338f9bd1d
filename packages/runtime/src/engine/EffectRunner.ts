import type { Clock, TimerHandle } from '@ringflow/client';
import { PERSIST, type PersistedValue } from '../snapshot/liveValues.ts';

/** What a cancelled effect "returns": it never ran, and nothing is reported. */
const CANCELLED: unique symbol = Symbol('cancelled');

/** The part of an actor an effect reports to: XState's `self` in an action. */
export interface EffectTarget {
  send(event: { readonly type: string; readonly [key: string]: unknown }): void;
  getSnapshot(): { readonly status: string };
}

/**
 * One place in a machine that runs an effect or a timer: its slot in the runner, and the event
 * types it reports with (made once, when the machine is built, not per event).
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
 * What a runner has under way, as plain data (the part of a call's snapshot that XState's own
 * persisted snapshot cannot hold): the slots of the effects still running, and the timers with
 * the clock time each fires at.
 */
export interface PersistedEffects {
  readonly $ringflow: 'effects';
  readonly effects: readonly number[];
  readonly timers: readonly { readonly slot: number; readonly deadline: number }[];
}

/** How the runner resumes the effects and timers of a restored machine (see {@link EffectRunner.resume}). */
export interface ResumeSites {
  /** Starts again the effect at `slot` the way its state entry does (or does nothing, per its resume rule). */
  effect(slot: number): void;
  /** The timer at `slot`, with the site it reports with. */
  timer(slot: number): EffectSite;
}

/**
 * The engine of a call machine's actions and delays: runs the effects (REST calls, webhooks) of
 * one running machine and reports each one's result back to it as an event,
 * `flow.effect.done.e<slot>` with `output` or `flow.effect.error.e<slot>` with `error` (the
 * shape of XState's own done/error events); and its timers, which report `flow.timer.t<slot>`.
 * States declare their effect and timers (`effect`, `after`); {@link lowerEffects} turns them
 * into the entry and exit actions that drive this runner.
 *
 * Why not one XState promise actor per effect: every step of every call spawned a child actor
 * (actor, system registration, an AbortController). Measured, that cost 1.3–1.7 ms of CPU per
 * flow call against 0.95 ms with this runner. An effect here is a promise started by an entry
 * action; leaving the state cancels it, so its late result is dropped, as a stopped actor's is.
 * And what is under way is plain data ({@link persist}): a call's machine can be saved after
 * each step and restored in another process ({@link resume}), which XState cannot do for a
 * promise actor in flight (it would run it again).
 *
 * One runner per machine instance (it lives in the machine's context), so a subflow has its own.
 *
 * @example
 * const site = effectSite(3);
 * runner.start(site, () => ari.channels.answer({ channelId }), self); // later: { type: site.done, output }
 * runner.cancel(site); // on exit: a result still on its way is dropped
 */
export class EffectRunner {
  // Every field is private to the class (#): XState's getPersistedSnapshot walks a machine's
  // context property by property, and a runner in a context must not lead it into the clock's
  // timer handles (Node's are linked lists: an endless walk, a stack overflow). The runner's
  // persisted form is its PERSIST method's.
  #tickets = 0;
  /** The ticket of the effect running in each slot; a result whose ticket is not current is dropped. */
  readonly #running: (number | undefined)[] = [];
  /** Timers running, by slot (see {@link startTimer}); made with the first timer. */
  #timers: ({ handle: TimerHandle; deadline: number } | undefined)[] | undefined;
  /** What a restored runner must take up again once its machine runs (see {@link resume}). */
  #toResume: PersistedEffects | undefined;

  readonly #clock: Clock;

  /** @param clock the clock of the runner's timers (the call's). */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * A runner for a restored machine: nothing runs until {@link resume} takes up what `persisted`
   * says was under way.
   */
  static restored(clock: Clock, persisted: PersistedEffects): EffectRunner {
    const runner = new EffectRunner(clock);
    runner.#toResume = persisted;
    return runner;
  }

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
    const ticket = ++this.#tickets;
    this.#running[slot] = ticket;
    const report = (event: { type: string; output?: unknown; error?: unknown }): void => {
      if (this.#running[slot] !== ticket) return;
      this.#running[slot] = undefined;
      // A machine that finished or was stopped meanwhile takes no more events.
      if (target.getSnapshot().status === 'active') target.send(event);
    };
    // Started a microtask later, once the transition that entered the state has been taken (the
    // work may itself send events to the machine); a state left in that same transition (an
    // eventless exit) never starts its effect, as XState never starts such an invoked actor.
    Promise.resolve()
      .then(() => (this.#running[slot] === ticket ? work() : CANCELLED))
      .then(
        (output) => {
          if (output === CANCELLED) return;
          if (reportDone(output)) report({ type: site.done, output });
          else if (this.#running[slot] === ticket) this.#running[slot] = undefined;
        },
        (error: unknown) => report({ type: site.error, error }),
      );
  }

  /**
   * Marks the effect at `site` as running without starting anything: its outcome will come as
   * events (a playback's PlaybackFinished), not as its reply. Used when a restored machine takes
   * up an effect that must not be repeated.
   */
  awaitEvents(site: EffectSite): void {
    this.#running[site.slot] = ++this.#tickets;
  }

  /**
   * Starts a timer for the state at `site`: after `delayMs` the machine gets `site.timer`
   * (XState's `after`, without its scheduler: a scheduled event, its id and a copy of the
   * system's scheduled-event table per timer). Leaving the state cancels it.
   */
  startTimer(site: EffectSite, delayMs: number, target: EffectTarget): void {
    this.cancelTimer(site);
    this.#timers ??= [];
    const timers = this.#timers;
    const { slot } = site;
    const handle = this.#clock.setTimeout(
      () => {
        timers[slot] = undefined;
        if (target.getSnapshot().status === 'active') target.send({ type: site.timer });
      },
      Math.max(0, delayMs),
    );
    timers[slot] = { handle, deadline: this.#clock.now() + delayMs };
  }

  cancelTimer(site: EffectSite): void {
    const timer = this.#timers?.[site.slot];
    if (!timer) return;
    this.#timers![site.slot] = undefined;
    this.#clock.clearTimeout(timer.handle);
  }

  /** The state that started the effect at `site` was left: its result, if it comes, is dropped. */
  cancel(site: EffectSite): void {
    this.#running[site.slot] = undefined;
  }

  /** Effects and timers still running (for leak checks and tests). */
  get pending(): number {
    let count = 0;
    for (const ticket of this.#running) if (ticket !== undefined) count++;
    for (const timer of this.#timers ?? []) if (timer !== undefined) count++;
    return count;
  }

  /** What is under way, as plain data (written with the machine's persisted snapshot). */
  persist(): PersistedEffects {
    if (this.#toResume) return this.#toResume;
    const effects: number[] = [];
    this.#running.forEach((ticket, slot) => {
      if (ticket !== undefined) effects.push(slot);
    });
    const timers: { slot: number; deadline: number }[] = [];
    this.#timers?.forEach((timer, slot) => {
      if (timer) timers.push({ slot, deadline: timer.deadline });
    });
    return { $ringflow: 'effects', effects, timers };
  }

  [PERSIST](): PersistedValue {
    return this.persist();
  }

  /**
   * Takes up, in a restored machine, what was under way when its snapshot was written: each
   * timer again for the time it had left (at once if its time has passed), and each effect as
   * its site's resume rule says (`sites.effect`). Does nothing for a runner that was not restored,
   * or twice.
   */
  resume(sites: ResumeSites, target: EffectTarget): void {
    const persisted = this.#toResume;
    if (!persisted) return;
    this.#toResume = undefined;
    const now = this.#clock.now();
    for (const { slot, deadline } of persisted.timers)
      this.startTimer(sites.timer(slot), deadline - now, target);
    for (const slot of persisted.effects) sites.effect(slot);
  }
}
