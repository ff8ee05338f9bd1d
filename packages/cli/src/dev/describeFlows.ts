import { type Flow, flowGraph } from '@ringflow/dsl';
import type { FlowDescription } from './feedMessages.ts';

/**
 * The flows as the console page draws them: each one's graph (the graph of `ringflow graph`), the
 * steps of each state with where they are written (`file:line:col`), and its current error.
 *
 * @example
 * json(res, describeFlows([{ name: 'ivr', file: 'flows/ivr.yaml', flow }]));
 */
export function describeFlows(
  flows: readonly {
    readonly name: string;
    readonly file: string;
    readonly flow: Flow;
    readonly error?: string;
  }[],
): FlowDescription[] {
  return flows.map((f) => ({
    name: f.name,
    file: f.file,
    graph: flowGraph(f.flow),
    states: Object.fromEntries(
      Object.entries(f.flow.document.states).map(([state, doc]) => [
        state,
        (doc.steps ?? []).map((step, i) => ({
          at: f.flow.where?.(['states', state, 'steps', i]) ?? f.file,
          step,
        })),
      ]),
    ),
    error: f.error ?? null,
  }));
}
