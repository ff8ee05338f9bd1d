import type { StateDocument } from '../model/flowSchema.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import { stepDefinition } from '../steps/index.ts';
import type { Flow } from '../validate/validateFlow.ts';

/** "From any state": the source of the flow-wide handlers (`on: { hangup, error, ... }`). */
export const ANY_STATE = '*';

/** One arrow of the flow: every way the flow can go from one state to another. */
export interface FlowTransition {
  readonly from: string;
  readonly to: string;
  /** What takes it (`menu 1`, `next`, `hangup`, `after 30s`, a condition...), one per way. */
  readonly labels: readonly string[];
}

/** The states and arrows of a flow's main body, as drawn by `toMermaid`. */
export interface FlowGraph {
  readonly start: string;
  readonly states: readonly string[];
  readonly transitions: readonly FlowTransition[];
}

/**
 * Lists the states of a flow and the transitions between them (several ways between the same two
 * states are one arrow with several labels). Subflows are not included: they run as child machines.
 *
 * @example
 * flowGraph(flow).transitions // [{ from: 'main-menu', to: 'sales-menu', labels: ['menu 1'] }, ...]
 */
export function flowGraph(flow: Flow): FlowGraph {
  const doc = flow.document;
  const arrows = new Map<string, { from: string; to: string; labels: string[] }>();
  const add = (from: string, to: string, label: string) => {
    const key = `${from}\u0000${to}`;
    const arrow = arrows.get(key) ?? { from, to, labels: [] };
    if (!arrow.labels.includes(label)) arrow.labels.push(label);
    arrows.set(key, arrow);
  };
  const each = (from: string, value: FlowTransitions | undefined, label: string) => {
    for (const t of transitionList(value))
      if (t.goto !== undefined) add(from, t.goto, t.if === undefined ? label : `${label} [${String(t.if)}]`);
  };
  for (const [name, state] of Object.entries(doc.states) as [string, StateDocument][]) {
    for (const step of state.steps ?? []) {
      if (typeof step === 'string') continue;
      const [stepName, params] = Object.entries(step)[0] as [string, Record<string, unknown>];
      for (const [outcome, value] of Object.entries((params.on ?? {}) as Record<string, FlowTransitions>))
        each(name, value, `${stepName} ${outcome}`);
      for (const route of stepDefinition(stepName)?.routes?.(params, []) ?? [])
        each(name, route.transitions, `${stepName} ${route.label}`);
    }
    each(name, state.next as FlowTransitions | undefined, 'next');
    for (const c of state.choose ?? [])
      add(name, c.goto, c.when === undefined ? 'otherwise' : `when ${String(c.when)}`);
    for (const [event, value] of Object.entries(state.on ?? {})) each(name, value, `on ${event}`);
    for (const [delay, value] of Object.entries(state.after ?? {})) each(name, value, `after ${delay}`);
  }
  for (const [event, value] of Object.entries(doc.on ?? {})) each(ANY_STATE, value, `on ${event}`);
  return { start: doc.start, states: Object.keys(doc.states), transitions: [...arrows.values()] };
}
