import { AGENT_DEVICE_STATE, type AgentAction, type AgentStatus, agentDevice } from './agentDevice.ts';
import type { Clock, TimerHandle } from '@ringflow/client';
import { BehaviorSubject, type Observable } from 'rxjs';
import { type Actor, assign, createActor, setup } from 'xstate';
import {
  applyQueueChange,
  initialQueueState,
  nextWake,
  positionOf,
  type QueueChange,
  type QueueExit,
  type QueueNotice,
  type QueueSettings,
  type QueueState,
} from './QueueState.ts';

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

/** The queue actor's context: the queue, and what its last change has to tell the callers. */
interface QueueActorContext {
  readonly queue: QueueState;
  readonly notices: readonly QueueNotice[];
}

// No action is created at run time: a queue is made, and changed, from inside the callers' own
// actions, where XState's development build warns about `assign` created then (including the one
// a context factory makes). So the action is made once here and each queue's machine starts from
// a ready context.
const queueSetup = setup({
  types: {
    context: {} as QueueActorContext,
    events: {} as QueueChange,
  },
  actions: {
    apply: assign(({ context, event }) => {
      const step = applyQueueChange(context.queue, event);
      return { queue: step.state, notices: step.notices };
    }),
  },
});

function queueMachine(name: string, settings: QueueSettings) {
  return queueSetup.createMachine({
    id: 'queue',
    context: { queue: initialQueueState(name, settings), notices: [] },
    on: { '*': { actions: 'apply' } },
  });
}

/**
 * A call queue shared by the calls of an application on one server: callers wait in it, agents
 * are offered to them as its ring strategy says. The queue only decides; each caller's logic
 * rings the agents it is offered, bridges on answer, and tells the queue how it went
 * (`answered`, `unanswered`, `agentFree`). Its state is plain data ({@link QueueState}), changed
 * only by this actor, and observable (`state$`).
 *
 * @example
 * const queue = call.queue('support', settings);
 * queue.join({ callId: call.id, tell: (e) => call.send(e) });
 * queue.positionOf(call.id); // 1
 */
export class CallQueue {
  readonly name: string;
  readonly #actor: Actor<ReturnType<typeof queueMachine>>;
  readonly #clock: Clock;
  readonly #members = new Map<string, QueueMember>();
  readonly #state: BehaviorSubject<QueueState>;
  readonly #observer: QueueObserver | undefined;
  #wake: TimerHandle | undefined;
  #wakeAt: number | undefined;

  constructor(name: string, settings: QueueSettings, clock: Clock, observer?: QueueObserver) {
    this.name = name;
    this.#clock = clock;
    this.#observer = observer;
    this.#actor = createActor(queueMachine(name, settings));
    this.#state = new BehaviorSubject(this.#actor.getSnapshot().context.queue);
    this.#actor.subscribe(({ context }) => {
      for (const notice of context.notices) this.#deliver(notice);
      this.#changed(context.queue);
    });
    this.#actor.start();
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

  /** What callers have waited lately before an agent answered, or undefined before the first answer. */
  expectedWaitMs(): number | undefined {
    const hold = this.state.stats.holdTimeMs;
    return hold < 0 ? undefined : hold;
  }

  /** Stops the queue's timer (the application is stopping). */
  stop(): void {
    this.#clock.clearTimeout(this.#wake);
    this.#wake = undefined;
    this.#actor.stop();
  }

  #leaveWith(callId: string, reason: QueueExit, agent?: string): void {
    const caller = this.state.callers.find((c) => c.callId === callId);
    const at = this.#clock.now();
    this.#members.delete(callId);
    if (!caller) return;
    this.#send(
      reason === 'answered' && agent !== undefined
        ? { type: 'answered', callId, agent, at }
        : { type: 'leave', callId, reason, at },
    );
    this.#observer?.left(this.name, reason, at - caller.joinedAt);
  }

  #send(change: QueueChange): void {
    this.#actor.send(change);
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
    this.#schedule(nextWake(state, this.#clock.now()));
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
            this.#send({ type: 'tick', at: this.#clock.now() });
          }, at - this.#clock.now());
  }
}
