import { graphlib, layout } from '@dagrejs/dagre';
import type { FlowDescription } from './types.ts';

/** The source of the flow-wide handlers (`on: { hangup: done }`), as flowGraph names it. */
export const ANY_STATE = '*';

/** A state's box on the diagram (its top left corner). */
export interface PlacedState {
  /** The state's name, or {@link ANY_STATE} for the box of the flow-wide handlers ("any state"). */
  readonly name: string;
  readonly label: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A transition's arrow: the points it goes through, and where its label sits. */
export interface PlacedTransition {
  readonly from: string;
  readonly to: string;
  readonly labels: readonly string[];
  readonly points: readonly { readonly x: number; readonly y: number }[];
  /** Where the label is centred, its text and its width. */
  readonly label: { readonly x: number; readonly y: number; readonly text: string; readonly width: number };
}

export interface FlowLayout {
  readonly width: number;
  readonly height: number;
  readonly states: readonly PlacedState[];
  readonly transitions: readonly PlacedTransition[];
}

const STATE_HEIGHT = 34;
/** Roughly the width of a character of the diagram's 12px (states) and 10px (labels) text. */
const CHAR = 7.2;
const LABEL_CHAR = 5.6;
/** Labels longer than this are cut (the whole text is the arrow's tooltip). */
const LABEL_MAX = 28;

/** A transition's label as drawn: its ways (`menu 1`, `on hangup`), cut when long. */
export function labelText(labels: readonly string[]): string {
  const text = labels.join(', ');
  return text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text;
}

/**
 * Lays a flow's graph out left to right with dagre's layered (Sugiyama) layout: states in ranks
 * from the start state, crossings reduced, each arrow routed between the ranks with its label
 * placed on it (no label sits on a state or on another label). The flow-wide handlers start from
 * one more box, "any state".
 *
 * @example
 * const { states, transitions, width, height } = layoutFlow(flow.graph);
 */
export function layoutFlow(graph: FlowDescription['graph']): FlowLayout {
  const g = new graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 46, edgesep: 12, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const names = graph.transitions.some((t) => t.from === ANY_STATE)
    ? [...graph.states, ANY_STATE]
    : graph.states;
  const labelOf = (name: string) => (name === ANY_STATE ? 'any state' : name);
  for (const name of names)
    g.setNode(name, { width: Math.max(90, labelOf(name).length * CHAR + 20), height: STATE_HEIGHT });
  for (const t of graph.transitions) {
    if (!g.hasNode(t.from) || !g.hasNode(t.to)) continue;
    const text = labelText(t.labels);
    g.setEdge(t.from, t.to, { width: text.length * LABEL_CHAR, height: 12, labelpos: 'c' });
  }
  layout(g);
  const states = names.map((name): PlacedState => {
    const node = g.node(name);
    return {
      name,
      label: labelOf(name),
      x: node.x - node.width / 2,
      y: node.y - node.height / 2,
      width: node.width,
      height: node.height,
    };
  });
  const transitions = graph.transitions.flatMap((t): PlacedTransition[] => {
    const edge = g.edge(t.from, t.to);
    if (!edge?.points) return [];
    return [
      {
        from: t.from,
        to: t.to,
        labels: t.labels,
        points: (edge.points as { x: number; y: number }[]).map((p) => ({ x: p.x, y: p.y })),
        label: {
          x: edge.x ?? 0,
          y: edge.y ?? 0,
          text: labelText(t.labels),
          width: labelText(t.labels).length * LABEL_CHAR,
        },
      },
    ];
  });
  const size = g.graph();
  return { width: size.width ?? 300, height: size.height ?? 200, states, transitions };
}
