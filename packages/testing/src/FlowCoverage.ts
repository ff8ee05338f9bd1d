import type { Flow } from '@ringflow/dsl';
import { ANY_STATE, type FlowGraph, type FlowTransition, flowGraph } from '@ringflow/dsl';

/** How often a state or transition was taken across the runs recorded. */
export interface CoverageReport {
  readonly flow: string;
  readonly states: readonly { readonly name: string; readonly visits: number }[];
  readonly transitions: readonly (FlowTransition & { readonly visits: number })[];
  /** Moves between states seen at run time that the flow's arrows do not list (error fallbacks...). */
  readonly unlisted: readonly { readonly from: string; readonly to: string; readonly visits: number }[];
  readonly statesVisited: number;
  readonly transitionsVisited: number;
}

/**
 * Collects which states and transitions of a flow test runs visited. Feed it the state sequence of
 * each run (`record`); `report()` says what was visited and what never was.
 *
 * A move `a -> b` counts for the arrow `a -> b` when the flow lists one, else for the flow-wide
 * handler arrow `* -> b`. Several ways between the same two states (menu keys 2 and 0 both going
 * to the operator) form one arrow: visiting it by one way covers it.
 *
 * @example
 * const coverage = new FlowCoverage(flow);
 * coverage.record(call.states());
 * console.log(formatCoverage(coverage.report()));
 */
export class FlowCoverage {
  readonly graph: FlowGraph;
  private readonly name: string;
  private readonly stateVisits = new Map<string, number>();
  private readonly moveVisits = new Map<string, number>();

  constructor(flow: Flow) {
    this.graph = flowGraph(flow);
    this.name = flow.document.name;
  }

  /** Adds one run: the states it entered, in order (repeats included). */
  record(states: readonly string[]): void {
    states.forEach((state, i) => {
      this.stateVisits.set(state, (this.stateVisits.get(state) ?? 0) + 1);
      const from = states[i - 1];
      if (from !== undefined) {
        const key = `${from}\u0000${state}`;
        this.moveVisits.set(key, (this.moveVisits.get(key) ?? 0) + 1);
      }
    });
  }

  report(): CoverageReport {
    const listed = new Set(this.graph.transitions.map((t) => `${t.from}\u0000${t.to}`));
    const visits = new Map<string, number>();
    const unlisted: { from: string; to: string; visits: number }[] = [];
    for (const [key, count] of this.moveVisits) {
      const [from, to] = key.split('\u0000') as [string, string];
      const anyKey = `${ANY_STATE}\u0000${to}`;
      const target = listed.has(key) ? key : listed.has(anyKey) ? anyKey : undefined;
      if (target === undefined) unlisted.push({ from, to, visits: count });
      else visits.set(target, (visits.get(target) ?? 0) + count);
    }
    const states = this.graph.states.map((name) => ({ name, visits: this.stateVisits.get(name) ?? 0 }));
    const transitions = this.graph.transitions.map((t) => ({
      ...t,
      visits: visits.get(`${t.from}\u0000${t.to}`) ?? 0,
    }));
    return {
      flow: this.name,
      states,
      transitions,
      unlisted,
      statesVisited: states.filter((s) => s.visits > 0).length,
      transitionsVisited: transitions.filter((t) => t.visits > 0).length,
    };
  }
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '100%' : `${Math.round((part / whole) * 100)}%`;
}

/**
 * A coverage report as text: totals, then what was never visited, then counts of everything.
 *
 * @example console.log(formatCoverage(coverage.report()));
 */
export function formatCoverage(report: CoverageReport): string {
  const lines = [
    `coverage of flow ${report.flow}: states ${report.statesVisited}/${report.states.length} (${percent(report.statesVisited, report.states.length)}), transitions ${report.transitionsVisited}/${report.transitions.length} (${percent(report.transitionsVisited, report.transitions.length)})`,
  ];
  const missedStates = report.states.filter((s) => s.visits === 0);
  const missedArrows = report.transitions.filter((t) => t.visits === 0);
  if (missedStates.length > 0)
    lines.push(`  states never visited: ${missedStates.map((s) => s.name).join(', ')}`);
  if (missedArrows.length > 0) {
    lines.push('  transitions never taken:');
    for (const t of missedArrows) lines.push(`    ${t.from} -> ${t.to}  (${t.labels.join('; ')})`);
  }
  lines.push('  transitions taken:');
  for (const t of report.transitions.filter((t) => t.visits > 0))
    lines.push(`    ${t.from} -> ${t.to}  x${t.visits}  (${t.labels.join('; ')})`);
  for (const u of report.unlisted)
    lines.push(`    ${u.from} -> ${u.to}  x${u.visits}  (not an arrow of the flow)`);
  return lines.join('\n');
}
