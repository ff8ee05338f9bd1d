import type { AnyStateMachine } from 'xstate';

/** Says whether any state of a machine has a transition for an event type. */
export type MachineEventFilter = (type: string) => boolean;

interface NodeLike {
  readonly transitions?: ReadonlyMap<string, unknown>;
  readonly states?: Readonly<Record<string, NodeLike>>;
}

const filters = new WeakMap<AnyStateMachine, MachineEventFilter>();
const ACCEPT_ALL: MachineEventFilter = () => true;

/**
 * The event types a machine can react to, read once per machine from its state nodes' transition
 * descriptors (exact types, `prefix.*` partial descriptors, and the `*` wildcard, which accepts
 * everything). A call session gives its machine only the events some state handles: the
 * server sends many events about a call that a machine ignores (state changes, playback starts,
 * variable sets), and each one still cost XState a full macrostep (transition selection over
 * every active state node, wildcard scans, eventless re-evaluation) — the largest share of the
 * XState time per call in load profiles.
 *
 * What is lost: an eventless (`always`) transition whose guard reads something outside the
 * machine (the clock) is no longer re-checked on an event nobody handles; guards that read the
 * machine's context or the event are unaffected (an unhandled event changes neither).
 *
 * @example
 * const accepts = machineEventFilter(machine);
 * if (accepts(event.type)) actor.send(event);
 */
export function machineEventFilter(machine: AnyStateMachine): MachineEventFilter {
  let filter = filters.get(machine);
  if (filter) return filter;
  const exact = new Set<string>();
  const prefixes: string[] = [];
  let all = false;
  const visit = (node: NodeLike): void => {
    for (const descriptor of node.transitions?.keys() ?? []) {
      if (descriptor === '*') all = true;
      else if (descriptor.endsWith('.*')) prefixes.push(descriptor.slice(0, -1));
      else exact.add(descriptor);
    }
    for (const child of Object.values(node.states ?? {})) visit(child);
  };
  // StateNode's `transitions` and `states` are public in XState 5 but typed per machine: NodeLike
  // names the two fields read (machineEventFilter.test.ts pins what they hold).
  visit(machine.root as unknown as NodeLike);
  filter = all
    ? ACCEPT_ALL
    : (type) => exact.has(type) || (prefixes.length > 0 && prefixes.some((p) => type.startsWith(p)));
  filters.set(machine, filter);
  return filter;
}
