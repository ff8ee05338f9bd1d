import { graphlib, layout } from '@dagrejs/dagre';
import { ANY_STATE, type FlowDescription } from './types.ts';

export { ANY_STATE } from './types.ts';

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
  /**
   * Where the label is centred, its whole text, the lines it is drawn on (one way per line,
   * long ones wrapped, never cut), its width and height.
   */
  readonly label: {
    readonly x: number;
    readonly y: number;
    readonly text: string;
    readonly lines: readonly string[];
    readonly width: number;
    readonly height: number;
  };
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
/** The height of one line of a label (10px text). */
export const LABEL_LINE = 13;
/** Longer lines of a label are wrapped at a space (never cut). */
const LINE_MAX = 22;

/**
 * Which way the flow runs on the diagram: left to right (ranks side by side: long flows get wide),
 * or top to bottom (ranks one under the other, packed tighter: a flow of many ranks fits a pane
 * of a laptop's screen at a size it can be read).
 */
export type FlowDirection = 'LR' | 'TB';

/** How each direction is laid out: dagre's spacing, and how long a label's line may be. */
const SPACING: Readonly<
  Record<FlowDirection, { nodesep: number; ranksep: number; edgesep: number; lineMax: number }>
> = {
  LR: { nodesep: 18, ranksep: 46, edgesep: 12, lineMax: LINE_MAX },
  TB: { nodesep: 10, ranksep: 20, edgesep: 8, lineMax: 18 },
};

/** A transition's label in full: its ways (`menu 1`, `on hangup`). */
export function labelText(labels: readonly string[]): string {
  return labels.join(', ');
}

/** A transition's label as drawn: one way per line, long ways wrapped at spaces, nothing cut. */
export function labelLines(labels: readonly string[], lineMax = LINE_MAX): string[] {
  const lines: string[] = [];
  for (const label of labels) {
    let line = '';
    for (const word of label.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > lineMax) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}

const labelSize = (lines: readonly string[]) => ({
  width: Math.max(...lines.map((l) => l.length), 1) * LABEL_CHAR + 4,
  height: lines.length * LABEL_LINE,
});

/**
 * Lays a flow's graph out left to right (or top to bottom) with dagre's layered (Sugiyama) layout: states in ranks
 * from the start state, crossings reduced, each arrow routed between the ranks with its label
 * placed on it (no label sits on a state or on another label), labels wrapped, never cut. The flow-wide handlers start from
 * one more box, "any state".
 *
 * @example
 * const { states, transitions, width, height } = layoutFlow(flow.graph, 'TB');
 */
export function layoutFlow(graph: FlowDescription['graph'], direction: FlowDirection = 'LR'): FlowLayout {
  const { lineMax, ...spacing } = SPACING[direction];
  const g = new graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: direction, ...spacing, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const names = graph.transitions.some((t) => t.from === ANY_STATE)
    ? [...graph.states, ANY_STATE]
    : graph.states;
  const labelOf = (name: string) => (name === ANY_STATE ? 'any state' : name);
  for (const name of names)
    g.setNode(name, { width: Math.max(90, labelOf(name).length * CHAR + 20), height: STATE_HEIGHT });
  for (const t of graph.transitions) {
    if (!g.hasNode(t.from) || !g.hasNode(t.to)) continue;
    g.setEdge(t.from, t.to, { ...labelSize(labelLines(t.labels, lineMax)), labelpos: 'c' });
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
    const lines = labelLines(t.labels, lineMax);
    return [
      {
        from: t.from,
        to: t.to,
        labels: t.labels,
        points: (edge.points as { x: number; y: number }[]).map((p) => ({ x: p.x, y: p.y })),
        label: { x: edge.x ?? 0, y: edge.y ?? 0, text: labelText(t.labels), lines, ...labelSize(lines) },
      },
    ];
  });
  const size = g.graph();
  return { width: size.width ?? 300, height: size.height ?? 200, states, transitions };
}
