import { AGENT_DEVICE_STATE, type AgentAction, type AgentStatus, agentDevice } from './agentDevice.ts';
import type { Clock, TimerHandle } from '@ringflow/client';
import type { Observable, Subscription } from 'rxjs';
import { BehaviorSubject } from '../rx.ts';
import { LocalQueueStore } from './LocalQueueStore.ts';
import { isAvailable } from './QueueOffers.ts';
import {
  initialQueueState,
  nextWake,
  positionOf,
  type QueueChange,
  type QueueExit,
  type QueueNotice,
  type QueueSettings,
  type QueueState,
} from './QueueState.ts';
import type { QueueCell, QueueStore } from './QueueStore.ts';

/** The events a queue sends to the calls waiting in it (`call.send`). */
export const QUEUE_OFFER = 'ringflow.queue.offer';
export const QUEUE_NO_AGENTS = 'ringflow.queue.noAgents';

// Event types are type aliases, not interfaces: they go through `call.send`, which takes any
// object with a `type` (an index signature an interface would not satisfy).

/** An agent is offered to the caller: ring these endpoints (one, or all of them for ring-all). */
export type QueueOfferEvent = {
  readonly type: typeof QUEUE_OFFER;
  readonly queue: string;
  readonly agents: readonly string[];
};

/** Every agent logged out: nobody will answer (the caller is no longer in the queue). */
export type QueueNoAgentsEvent = {
  readonly type: typeof QUEUE_NO_AGENTS;
  readonly queue: string;
};

/** A call in the queue, as the queue sees it: where to send its offers. */
export interface QueueMember {
  readonly callId: string;
  tell(event: QueueOfferEvent | QueueNoAgentsEvent): void;
}

/** Counts what a queue does (the runtime's metrics implement it). */
export interface QueueObserver {
  changed(state: QueueState): void;
  left(queue: string, reason: QueueExit, waitedMs: number): void;
}

/**
 * A call queue shared by the calls of an application on one server: callers wait in it, agents
 * are offered to them as its ring strategy says. The queue only decides; each caller's logic
 * rings the agents it is offered, bridges on answer, and tells the queue how it went
 * (`answered`, `unanswered`, `agentFree`). Its state is plain data ({@link QueueState}), changed
 * only through its cell ({@link QueueCell}: an actor of this process by default, or a store the
 * processes of a cluster share), and observable (`state$`). The callers it tells are those of
 * this process (`join`); in a shared queue, the others' processes tell theirs.
 *
 * @example
 * const queue = call.queue('support', settings);
 * queue.join({ callId: call.id, tell: (e) => call.send(e) });
 * queue.positionOf(call.id); // 1
 */
export class CallQueue {
  readonly name: string;
  readonly #cell: QueueCell;
  readonly #subscription: Subscription;
  readonly #clock: Clock;
  readonly #members = new Map<string, QueueMember>();
  readonly #state: BehaviorSubject<QueueState>;
  readonly #observer: QueueObserver | undefined;
  #wake: TimerHandle | undefined;
  #wakeAt: number | undefined;

  /**
   * `shared`: the store where the queue's state lives, and the server's name there (default:
   * this process, see `QueueStore`).
   */
  constructor(
    name: string,
    settings: QueueSettings,
    clock: Clock,
    observer?: QueueObserver,
    shared?: { readonly store: QueueStore; readonly server: string },
  ) {
    this.name = name;
    this.#clock = clock;
    this.#observer = observer;
    const cell = (shared?.store ?? new LocalQueueStore()).open(
      shared?.server ?? '',
      name,
      initialQueueState(name, settings),
    );
    this.#cell = cell;
    this.#state = new BehaviorSubject(cell.state);
    this.#subscription = cell.steps$.subscribe((step) => {
      for (const notice of step.notices) this.#deliver(notice);
      this.#changed(step.state);
    });
    observer?.changed(this.#state.value);
  }

  /** The queue as it is now: waiting callers (head first), agents, statistics. */
  get state(): QueueState {
    return this.#state.value;
  }

  /** Every change of the queue's state. */
  get state$(): Observable<QueueState> {
    return this.#state.asObservable();
  }

  get settings(): QueueSettings {
    return this.#state.value.settings;
  }

  /**
   * Puts a caller at the end of the queue. An offer or `noAgents` may follow at once. A caller
   * restored in a new process gives `restored`: it keeps its place (its join time), and the
   * agents its call was ringing stay offered to it.
   */
  join(
    member: QueueMember,
    restored?: { readonly joinedAt: number; readonly ringing: readonly string[] },
  ): void {
    this.#members.set(member.callId, member);
    this.#send({
      type: 'join',
      callId: member.callId,
      at: restored?.joinedAt ?? this.#clock.now(),
      ...(restored ? { ringing: restored.ringing } : {}),
    });
  }

  /** A caller restored in a new process was talking with `agent`: the agent is busy until `agentFree`. */
  talking(callId: string, agent: string): void {
    this.#send({ type: 'talking', callId, agent, at: this.#clock.now() });
  }

  /** The caller leaves without an agent (time-out, exit key, hang-up). */
  leave(callId: string, reason: Exclude<QueueExit, 'answered'>): void {
    this.#leaveWith(callId, reason);
  }

  /** An agent offered to the caller answered: the caller leaves the queue, the agent is talking. */
  answered(callId: string, agent: string): void {
    this.#leaveWith(callId, 'answered', agent);
  }

  /** Nobody offered to the caller answered: they rest for `retryMs`, the caller waits on. */
  unanswered(callId: string): void {
    this.#send({ type: 'unanswered', callId, at: this.#clock.now() });
  }

  /** An agent's call ended: it wraps up for `wrapUpMs`, then takes calls again. */
  agentFree(agent: string): void {
    this.#send({ type: 'agentFree', agent, at: this.#clock.now() });
  }

  /**
   * Logs an agent in or out, pauses or resumes it (an unknown agent joins the queue). Returns
   * the device state that shows its status on the server (see `agentDevice`): publishing it
   * (`deviceStates.update`) makes the status outlive this process.
   */
  agent(agent: string, action: AgentAction): AgentStatus {
    this.#send({ type: 'agent', agent, action, at: this.#clock.now() });
    return { device: agentDevice(this.name, agent), state: AGENT_DEVICE_STATE[action] };
  }

  /** The caller's place (1 = next), 0 when it is not waiting. */
  positionOf(callId: string): number {
    return positionOf(this.state, callId);
  }

  /** How many callers wait (every process's, with a shared queue). */
  waiting(): number {
    return this.state.callers.length;
  }

  /** How many agents could answer now: logged in, not paused, idle and rested (as offers judge). */
  agentsFree(): number {
    const now = this.#clock.now();
    return this.state.agents.filter((agent) => isAvailable(agent, now)).length;
  }

  /** What callers have waited lately before an agent answered, or undefined before the first answer. */
  expectedWaitMs(): number | undefined {
    const hold = this.state.stats.holdTimeMs;
    return hold < 0 ? undefined : hold;
  }

  /** Stops the queue's timer (the application is stopping). */
  stop(): void {
    this.#clock.clearTimeout(this.#wake);
    this.#wake = undefined;
    this.#subscription.unsubscribe();
    this.#cell.close();
  }

  #leaveWith(callId: string, reason: QueueExit, agent?: string): void {
    const at = this.#clock.now();
    this.#members.delete(callId);
    // Counted once the queue took the caller out (it may have left already: nothing then).
    this.#cell.change(
      reason === 'answered' && agent !== undefined
        ? { type: 'answered', callId, agent, at }
        : { type: 'leave', callId, reason, at },
      (before) => {
        const caller = before.callers.find((c) => c.callId === callId);
        if (caller) this.#observer?.left(this.name, reason, at - caller.joinedAt);
      },
    );
  }

  #send(change: QueueChange): void {
    this.#cell.change(change);
  }

  #deliver(notice: QueueNotice): void {
    const member = this.#members.get(notice.callId);
    if (!member) return;
    if (notice.type === 'noAgents') {
      this.#members.delete(notice.callId);
      this.#observer?.left(this.name, 'noAgents', 0);
    }
    // Told after the change that caused it is complete: the caller may answer with another change.
    queueMicrotask(() =>
      member.tell(
        notice.type === 'offer'
          ? { type: QUEUE_OFFER, queue: this.name, agents: notice.agents }
          : { type: QUEUE_NO_AGENTS, queue: this.name },
      ),
    );
  }

  #changed(state: QueueState): void {
    if (state === this.#state.value) return;
    this.#state.next(state);
    this.#observer?.changed(state);
    this.#schedule(nextWake(state, this.#clock.now(), this.#cell.staleOfferMs));
  }

  /** One timer, for the next wrap-up or rest to end: then free agents are offered again. */
  #schedule(at: number | undefined): void {
    if (at === this.#wakeAt) return;
    this.#clock.clearTimeout(this.#wake);
    this.#wakeAt = at;
    this.#wake =
      at === undefined
        ? undefined
        : this.#clock.setTimeout(() => {
            this.#wake = undefined;
            this.#wakeAt = undefined;
            const stale = this.#cell.staleOfferMs;
            this.#send({
              type: 'tick',
              at: this.#clock.now(),
              ...(stale === undefined ? {} : { staleOfferMs: stale }),
            });
          }, at - this.#clock.now());
  }
}
