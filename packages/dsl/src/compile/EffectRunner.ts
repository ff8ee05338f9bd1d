import type { Clock, TimerHandle } from '@ringflow/client';

/** What a cancelled effect "returns": it never ran, and nothing is reported. */
const CANCELLED: unique symbol = Symbol('cancelled');

/** The part of an actor an effect reports to: XState's `self` in an action. */
export interface EffectTarget {
  send(event: { readonly type: string; readonly [key: string]: unknown }): void;
  getSnapshot(): { readonly status: string };
}

/**
 * Runs the effects (REST calls, webhooks) of one running flow machine and reports each one's
 * result back to the machine as an event, `flow.effect.done.<site>` with `output` or
 * `flow.effect.error.<site>` with `error` (the shape of XState's own done/error events).
 *
 * Why not one XState promise actor per effect: every step of every call spawned a child actor
 * (actor, system registration, an AbortController, a DOMException on stop). In load profiles
 * that was the largest single cost of a flow call. An effect is a promise started by an entry
 * action; leaving the state cancels it, so its late result is dropped, as a stopped actor's is.
 *
 * One runner per machine instance (it lives in the flow's context), so a subflow has its own.
 *
 * @example
 * runner.start('s3', () => ari.channels.answer({ channelId }), self); // later: { type: 'flow.effect.done.s3', output }
 * runner.cancel('s3'); // on exit: a result still on its way is dropped
 */
export class EffectRunner {
  private tickets = 0;
  /** The ticket of the effect running at each site; a result whose ticket is not current is dropped. */
  private readonly running = new Map<string, number>();
  /** Timers running, by site (see {@link startTimer}); made with the first timer. */
  private timers: Map<string, { clock: Clock; handle: TimerHandle }> | undefined;

  /**
   * Starts `work` for the state at `site`. `reportDone` says which results the machine wants to
   * hear about (an effect whose success nothing waits for is not reported: each event costs the
   * machine a macrostep); failures are always reported.
   */
  start(
    site: string,
    work: () => Promise<unknown>,
    target: EffectTarget,
    reportDone: (output: unknown) => boolean = () => true,
  ): void {
    const ticket = ++this.tickets;
    this.running.set(site, ticket);
    const report = (event: { type: string; output?: unknown; error?: unknown }): void => {
      if (this.running.get(site) !== ticket) return;
      this.running.delete(site);
      // A machine that finished or was stopped meanwhile takes no more events.
      if (target.getSnapshot().status === 'active') target.send(event);
    };
    // Started a microtask later, once the transition that entered the state has been taken (the
    // work may itself send events to the machine); a state left in that same transition (an
    // eventless exit) never starts its effect, as XState never starts such an invoked actor.
    Promise.resolve()
      .then(() => (this.running.get(site) === ticket ? work() : CANCELLED))
      .then(
        (output) => {
          if (output === CANCELLED) return;
          if (reportDone(output)) report({ type: effectDoneType(site), output });
          else if (this.running.get(site) === ticket) this.running.delete(site);
        },
        (error: unknown) => report({ type: effectErrorType(site), error }),
      );
  }

  /**
   * Starts a timer for the state at `site` on `clock`: after `delayMs` the machine gets
   * `flow.timer.<site>` (XState's `after`, without its scheduler: a scheduled event, its id and
   * a copy of the system's scheduled-event table per timer). Leaving the state cancels it.
   */
  startTimer(site: string, delayMs: number, clock: Clock, target: EffectTarget): void {
    this.cancelTimer(site);
    this.timers ??= new Map();
    const timers = this.timers;
    const handle = clock.setTimeout(() => {
      timers.delete(site);
      if (target.getSnapshot().status === 'active') target.send({ type: timerType(site) });
    }, delayMs);
    timers.set(site, { clock, handle });
  }

  cancelTimer(site: string): void {
    const timer = this.timers?.get(site);
    if (!timer) return;
    this.timers?.delete(site);
    timer.clock.clearTimeout(timer.handle);
  }

  /** The state that started the effect at `site` was left: its result, if it comes, is dropped. */
  cancel(site: string): void {
    this.running.delete(site);
  }

  /** Effects and timers still running (for leak checks and tests). */
  get pending(): number {
    return this.running.size + (this.timers?.size ?? 0);
  }
}

/** The event an effect's success sends to its machine. */
export function effectDoneType(site: string): string {
  return `flow.effect.done.${site}`;
}

/** The event a timer sends to its machine when it fires. */
export function timerType(site: string): string {
  return `flow.timer.${site}`;
}

/** The event an effect's failure sends to its machine. */
export function effectErrorType(site: string): string {
  return `flow.effect.error.${site}`;
}
