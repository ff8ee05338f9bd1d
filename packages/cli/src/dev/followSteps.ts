import type { AnyActorRef, InspectionEvent } from 'xstate';
import { ANY_STATE, type FlowStep } from './feedMessages.ts';

/** A call machine's snapshot as read here: its state value and its flow variables. */
interface Snapshot {
  readonly value: unknown;
  readonly context?: { readonly vars?: Readonly<Record<string, unknown>> };
}

/** A transition as XState's inspection tells it: the state node it is written on, its targets. */
interface TransitionSeen {
  readonly source?: { readonly path: readonly string[] };
  readonly target?: readonly { readonly path: readonly string[] }[];
}

/** The flow state of a machine's state value (the top-level state; steps are nested in it). */
export function topState(value: unknown): string {
  return typeof value === 'string' ? value : (Object.keys(value as object)[0] ?? '');
}

/** A duration of milliseconds as a flow writes it (`5m`, `60s`, `250ms`). */
function durationText(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * An event a call's machine took, as the console tells it: a server event with its key
 * (`ChannelDtmfReceived 1`), a timer of the flow (`after 60s`), or the event's type.
 */
export function eventText(event: { readonly type: string } & Readonly<Record<string, unknown>>): string {
  const after = /^xstate\.after\.(\d+)\./.exec(event.type);
  if (after) return `after ${durationText(Number(after[1]))}`;
  return `${event.type}${typeof event.digit === 'string' ? ` ${event.digit}` : ''}`;
}

/** What {@link followSteps} tells of a call's machine. */
export interface StepListener {
  /** The call entered a flow state, from `from` by the way starting at `via`, on `event`. */
  entered(state: string, how: { readonly from: string; readonly via?: string; readonly event: string }): void;
  /** An event changed the flow state or variables (one call per event the machine took). */
  stepped(step: Omit<FlowStep, 'call' | 'at'>): void;
}

/** Where the way that left `from` is written: on the state itself, or flow-wide ("any state"). */
function viaOf(transitions: readonly TransitionSeen[], from: string): string | undefined {
  const leaving = transitions.find((t) => t.target?.some((node) => node.path[0] !== from)) ?? transitions[0];
  if (!leaving?.source) return undefined;
  return leaving.source.path.length === 0 ? ANY_STATE : leaving.source.path[0];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Follows the steps of a call's machine through XState's inspection: for each event it takes,
 * the flow states it goes through (each with the event and the way taken: the diagram lights
 * that arrow, not one guessed from the order of states) and, once the event is handled, what it
 * changed (state and variables before and after). Returns the unsubscriber.
 *
 * @example
 * const stop = followSteps(actor, { entered: (s) => ..., stepped: (step) => feed.send(...) });
 */
export function followSteps(actor: AnyActorRef, listener: StepListener): () => void {
  const first = actor.getSnapshot() as Snapshot;
  let state = topState(first.value);
  let vars: Readonly<Record<string, unknown>> = first.context?.vars ?? {};
  let event = 'start';
  // The state the current event left first (an event may go through several states).
  let stepFrom: { readonly state: string; readonly via: string | undefined } | undefined;
  const inspection = actor.system.inspect((seen: InspectionEvent) => {
    if (seen.actorRef !== actor) return;
    if (seen.type === '@xstate.event') event = eventText(seen.event);
    else if (seen.type === '@xstate.microstep') {
      const to = topState((seen.snapshot as unknown as Snapshot).value);
      if (to === '' || to === state) return;
      const via = viaOf((seen as unknown as { _transitions: TransitionSeen[] })._transitions ?? [], state);
      listener.entered(to, { from: state, event, ...(via !== undefined ? { via } : {}) });
      stepFrom ??= { state, via };
      state = to;
    } else if (seen.type === '@xstate.snapshot') {
      const snapshot = seen.snapshot as unknown as Snapshot;
      const next = snapshot.context?.vars ?? vars;
      const names = [...new Set([...Object.keys(vars), ...Object.keys(next)])];
      const changes = names
        .filter((name) => !same(vars[name], next[name]))
        .map((name) => ({
          name,
          ...(vars[name] !== undefined ? { before: vars[name] } : {}),
          ...(next[name] !== undefined ? { after: next[name] } : {}),
        }));
      const to = topState(snapshot.value) || state;
      if (stepFrom || changes.length > 0)
        listener.stepped({
          event,
          from: stepFrom?.state ?? to,
          to,
          ...(stepFrom?.via !== undefined ? { via: stepFrom.via } : {}),
          vars: changes,
        });
      stepFrom = undefined;
      vars = next;
      state = to;
    }
  });
  return () => inspection.unsubscribe();
}
