import type { Flow, FlowOutput } from '@ringflow/dsl';
import { type CallSession, formatCallEnd } from '@ringflow/runtime';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import type { CallEnd } from './feedMessages.ts';
import { followSteps, topState } from './followSteps.ts';

/** What the console follows of a call: its flow, the states it entered, how it ended. */
export interface WatchedCall {
  readonly id: string;
  flow: string;
  readonly states: string[];
  /** The flow's own end (status, state, vars), once its machine finished. */
  output?: FlowOutput;
  /** When the call's session ended (ms since the epoch), and how. */
  endedAt?: number;
  /** How it ended, in the runtime's words (the one vocabulary of call ends). */
  end?: CallEnd;
  outcome?: string;
}

interface Snapshot {
  readonly value: unknown;
  readonly context?: { readonly vars?: Readonly<Record<string, unknown>> };
}

/** Ended calls kept (for the page's list and "save as test"); older ones are forgotten. */
const ENDED_KEPT = 500;

/** How the console follows calls. */
export interface WatchOptions {
  /** Also put the events the call receives in its timeline (when nothing else shows them). */
  readonly events?: boolean;
  /** Told of each call as it starts. */
  readonly onCall?: (call: WatchedCall, session: CallSession) => void;
  /** Told of each event a call receives (its own channel's and the channels it dialled). */
  readonly onEvent?: (
    session: CallSession,
    event: { readonly type: string } & Readonly<Record<string, unknown>>,
  ) => void;
  /** How an ended call ended, in a scenario's words (the page lists it so). */
  readonly endOf?: (call: WatchedCall) => CallEnd | undefined;
  /** Told when an ended call is forgotten (beyond the last 500). */
  readonly onForgotten?: (id: string) => void;
  /** The time now (ms since the epoch): the console's simulated time in `ringflow dev`. */
  readonly now?: () => number;
}

function short(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Follows every call of an application on the console's feed: the call (and its flow), each state
 * it enters (with the timers that state arms), its variables as they change, and its end. Calls
 * whose flow `flowOf` does not know are followed by their application name, without timers.
 * Returns the calls followed, by channel id (the last 500 ended ones are kept).
 *
 * @example
 * const calls = watchCalls(app.calls$, feed, () => flow);
 */
export function watchCalls(
  calls$: { subscribe(next: (session: CallSession) => void): unknown },
  feed: ConsoleFeed,
  flowOf: (session: CallSession) => Flow | undefined,
  options: WatchOptions = {},
): Map<string, WatchedCall> {
  const watched = new Map<string, WatchedCall>();
  const ended: string[] = [];
  const now = options.now ?? Date.now;
  calls$.subscribe((session) => {
    const id = session.channelId;
    const call: WatchedCall = { id, flow: session.application ?? '', states: [] };
    watched.set(id, call);
    const events =
      options.events || options.onEvent
        ? session.events$.subscribe((event) => {
            const e = event as { type: string; digit?: string; channel?: { id?: string } };
            const whose = e.channel?.id && e.channel.id !== id ? ` (${e.channel.id})` : '';
            if (options.events) feed.line(id, 'event', `${e.type}${e.digit ? ` ${e.digit}` : ''}${whose}`);
            options.onEvent?.(session, event as unknown as { type: string } & Record<string, unknown>);
          })
        : undefined;
    // The actor (and so the flow version the call runs) is made right after the session is announced.
    queueMicrotask(() => {
      const flow = flowOf(session);
      if (flow) call.flow = flow.document.name;
      options.onCall?.(call, session);
      feed.send({ type: 'call', id, flow: call.flow, at: now() });
      const actor = session.machine;
      const enter = (state: string, how?: { from: string; via?: string; event: string }) => {
        if (state === '' || state.startsWith('$') || state === call.states[call.states.length - 1]) return;
        call.states.push(state);
        feed.send({ type: 'state', call: id, state, ...how });
        feed.line(id, 'state', `◆ ${state}${how ? ` ← ${how.event}` : ''}`);
        const after = flow?.document.states[state]?.after;
        for (const [delay, target] of Object.entries(after ?? {}))
          feed.line(
            id,
            'timer',
            `◷ ${delay} in ${state} → ${typeof target === 'string' ? target : short(target)}`,
          );
      };
      const varsLine = (changes: readonly (readonly [string, unknown])[]) => {
        if (changes.length > 0)
          feed.line(id, 'vars', changes.map(([k, v]) => `${k} = ${short(v)}`).join(', '));
      };
      if (flow) enter(flow.document.start);
      if (actor) {
        const snapshot = actor.getSnapshot() as Snapshot;
        enter(topState(snapshot.value));
        varsLine(Object.entries(snapshot.context?.vars ?? {}));
      }
      // Each event the machine takes: the states it enters (with the event and the way taken),
      // then what it changed (the page's step-through shows it; the variables go to the timeline).
      const unfollow = actor
        ? followSteps(actor, {
            entered: enter,
            stepped: (step) => {
              varsLine(step.vars.map((v) => [v.name, v.after] as const));
              feed.send({ type: 'step', step: { call: id, at: now(), ...step } });
            },
          })
        : undefined;
      actor?.subscribe({
        next: (snapshot) => {
          if (snapshot.status === 'done') call.output = snapshot.output as FlowOutput;
        },
        error: () => {},
      });
      void session.done.then((outcome) => {
        unfollow?.();
        events?.unsubscribe();
        ended.push(id);
        if (ended.length > ENDED_KEPT) {
          const forgotten = ended.shift()!;
          watched.delete(forgotten);
          options.onForgotten?.(forgotten);
        }
        call.endedAt = now();
        const result = session.result;
        if (result) call.end = { status: result.status, by: result.by };
        call.outcome = call.end ? formatCallEnd(call.end) : String(outcome);
        feed.line(id, 'end', `■ call ended: ${call.outcome}`);
        const end = options.endOf?.(call);
        feed.send({
          type: 'ended',
          call: id,
          outcome: call.outcome,
          at: call.endedAt,
          ...(end ? { end: { status: end.status, by: end.by } } : {}),
        });
      });
    });
  });
  return watched;
}
