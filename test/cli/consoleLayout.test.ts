import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { flowGraph, loadFlowFile } from '@ringflow/dsl';
import { describe, expect, it } from 'vitest';
import { labelText, layoutFlow } from '../../packages/cli/src/dev/page/layoutFlow.ts';

const FLOWS = join(import.meta.dirname, '../../flows');

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

/**
 * The console's diagram of every shipped flow, as dagre lays it out: what a user reads on the page
 * must not sit on top of something else.
 */
describe('the console diagram of the shipped flows', () => {
  for (const name of readdirSync(FLOWS).filter((f) => /^[^.]+\.yaml$/.test(f))) {
    it(`${name}: every state placed, no two boxes or labels overlapping, every arrow drawn and labelled`, async () => {
      const graph = flowGraph(await loadFlowFile(join(FLOWS, name)));
      const layout = layoutFlow(graph);
      const anyState = graph.transitions.some((t) => t.from === '*') ? ['*'] : [];
      expect(layout.states.map((s) => s.name)).toEqual([...graph.states, ...anyState]);
      expect(layout.transitions).toHaveLength(graph.transitions.length);
      const boxes = layout.states.map((s) => ({ ...s, what: `state ${s.name}` }));
      for (const t of layout.transitions) {
        expect(t.points.length, `${t.from} → ${t.to}`).toBeGreaterThanOrEqual(2);
        expect(t.label.text).toBe(labelText(t.labels));
        // Drawn whole: wrapped on lines, never cut.
        expect(t.label.lines.join(' ').replace(/,/g, '')).toBe(t.labels.join(' ').replace(/,/g, ''));
      }
      const labels = layout.transitions
        .filter((t) => t.from !== t.to)
        .map((t) => ({
          x: t.label.x - t.label.width / 2,
          y: t.label.y - t.label.height / 2,
          width: t.label.width,
          height: t.label.height,
          what: `label ${t.label.text}`,
        }));
      const all = [...boxes, ...labels];
      for (const [i, a] of all.entries())
        for (const b of all.slice(i + 1)) expect(apart(a, b), `${a.what} overlaps ${b.what}`).toBe(true);
      for (const s of layout.states) {
        expect(s.x).toBeGreaterThanOrEqual(0);
        expect(s.y).toBeGreaterThanOrEqual(0);
        expect(s.x + s.width).toBeLessThanOrEqual(layout.width);
        expect(s.y + s.height).toBeLessThanOrEqual(layout.height);
      }
    });
  }
});
