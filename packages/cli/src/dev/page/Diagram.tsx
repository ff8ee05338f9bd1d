import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CallView } from './ConsoleStore.ts';
import { ANY_STATE, type FlowDirection, type FlowLayout, LABEL_LINE, layoutFlow } from './layoutFlow.ts';
import type { FlowDescription } from './types.ts';

/** What is picked on the diagram: a state, or an arrow (from, to). */
export type DiagramPick =
  | { readonly kind: 'state'; readonly state: string }
  | { readonly kind: 'edge'; readonly from: string; readonly to: string };

/** Whether the call took the arrow from `from` (a state, or any state) to `to`, as the server told. */
function took(call: CallView | undefined, from: string, to: string): boolean {
  return call?.edges.some((e) => e.via === from && e.to === to) ?? false;
}

interface View {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}

const MIN_SCALE = 0.2;
const MAX_SCALE = 3;
const PAD = 16;
const clamp = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

/** The view that shows the whole layout in a pane of `width` x `height`, centred (never above 1.5x). */
function fitted(layout: FlowLayout, width: number, height: number): View {
  const scale = clamp(Math.min((width - 2 * PAD) / layout.width, (height - 2 * PAD) / layout.height, 1.5));
  return { scale, x: (width - layout.width * scale) / 2, y: (height - layout.height * scale) / 2 };
}

/**
 * The flow as a state diagram (the graph of `ringflow graph`, laid out by layoutFlow left to right,
 * or top to bottom when that shows a flow bigger than a left to right under its own size), fitted
 * to its pane: wheel or +/- zooms, dragging or the arrow keys pan, 0 or "Fit" shows it whole. The
 * selected call's active state is lit, the states it went through and the arrows it took (as
 * the server told) drawn; each arrow's label says in full which ways lead along it. Clicking a
 * state or an arrow picks it (its steps are shown beside).
 */
export function Diagram(props: {
  readonly flow: FlowDescription | undefined;
  readonly call: CallView | undefined;
  readonly picked: DiagramPick | null;
  readonly onPick: (pick: DiagramPick) => void;
}) {
  const { flow, call, picked } = props;
  const path = call?.path ?? [];
  const layouts = useMemo(
    () =>
      flow
        ? (['LR', 'TB'] as const).map((direction) => ({
            direction,
            layout: layoutFlow(flow.graph, direction),
          }))
        : [],
    [flow],
  );
  const pane = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  // Left to right, unless it shows the flow under its own size and top to bottom shows it bigger;
  // chosen again when the diagram is fitted, never under a view the user moved.
  const best = (): FlowDirection => {
    if (size.width === 0) return 'LR';
    const scale = (direction: FlowDirection) => {
      const laid = layouts.find((l) => l.direction === direction)?.layout;
      return laid ? fitted(laid, size.width, size.height).scale : 0;
    };
    return scale('LR') < 1 && scale('TB') > scale('LR') ? 'TB' : 'LR';
  };
  const [direction, setDirection] = useState<FlowDirection>('LR');
  const layout = layouts.find((l) => l.direction === direction)?.layout;
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0 });
  // Until the user zooms or pans, the diagram stays fitted (as the pane or the flow changes).
  const moved = useRef(false);
  const drag = useRef<{ x: number; y: number; view: View; far: boolean } | null>(null);
  const dragged = useRef(false);

  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const observer = new ResizeObserver(() =>
      setSize({ width: element.clientWidth, height: element.clientHeight }),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const fit = () => {
    moved.current = false;
    const chosen = best();
    setDirection(chosen);
    const shown = layouts.find((l) => l.direction === chosen)?.layout;
    if (shown && size.width > 0) setView(fitted(shown, size.width, size.height));
  };
  useEffect(() => {
    if (!moved.current) fit();
  }, [layouts, size.width, size.height]);
  useEffect(() => {
    moved.current = false;
    fit();
  }, [flow?.name]);

  const active = call && !call.ended ? call.state : null;
  // The state the call is in is brought into the pane when it is outside.
  useEffect(() => {
    const box = layout?.states.find((s) => s.name === active);
    if (!box || size.width === 0) return;
    setView((v) => {
      const left = v.x + box.x * v.scale;
      const top = v.y + box.y * v.scale;
      const inside =
        left >= 0 &&
        top >= 0 &&
        left + box.width * v.scale <= size.width &&
        top + box.height * v.scale <= size.height;
      if (inside) return v;
      return {
        ...v,
        x: size.width / 2 - (box.x + box.width / 2) * v.scale,
        y: size.height / 2 - (box.y + box.height / 2) * v.scale,
      };
    });
  }, [active, call?.id, layout, size.width, size.height]);

  const zoom = (factor: number, at = { x: size.width / 2, y: size.height / 2 }) => {
    moved.current = true;
    setView((v) => {
      const scale = clamp(v.scale * factor);
      return {
        scale,
        x: at.x - ((at.x - v.x) * scale) / v.scale,
        y: at.y - ((at.y - v.y) * scale) / v.scale,
      };
    });
  };
  const pan = (dx: number, dy: number) => {
    moved.current = true;
    setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
  };
  const onKey = (e: KeyboardEvent) => {
    const steps: Record<string, () => void> = {
      '+': () => zoom(1.25),
      '=': () => zoom(1.25),
      '-': () => zoom(0.8),
      _: () => zoom(0.8),
      '0': fit,
      ArrowLeft: () => pan(60, 0),
      ArrowRight: () => pan(-60, 0),
      ArrowUp: () => pan(0, 60),
      ArrowDown: () => pan(0, -60),
    };
    const step = steps[e.key];
    if (!step || e.target !== e.currentTarget) return;
    e.preventDefault();
    step();
  };
  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const rect = pane.current?.getBoundingClientRect();
    zoom(Math.exp(-e.deltaY / 400), rect ? { x: e.clientX - rect.left, y: e.clientY - rect.top } : undefined);
  };
  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    dragged.current = false;
    drag.current = { x: e.clientX, y: e.clientY, view, far: false };
    const move = (m: PointerEvent) => {
      const d = drag.current;
      if (!d) return;
      const dx = m.clientX - d.x;
      const dy = m.clientY - d.y;
      if (!d.far && Math.hypot(dx, dy) < 4) return;
      d.far = true;
      dragged.current = true;
      moved.current = true;
      setView({ ...d.view, x: d.view.x + dx, y: d.view.y + dy });
    };
    const up = () => {
      drag.current = null;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  // A drag that ends on a state is not a click on it.
  const pick = (p: DiagramPick) => {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    props.onPick(p);
  };
  const keyPick = (p: DiagramPick) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      props.onPick(p);
    }
  };
  const isPicked = (p: DiagramPick) =>
    picked !== null &&
    (p.kind === 'state'
      ? picked.kind === 'state' && picked.state === p.state
      : picked.kind === 'edge' && picked.from === p.from && picked.to === p.to);

  return (
    <div class="diagram-wrap">
      <div class="diagram-tools" role="toolbar" aria-label="Diagram view">
        <button
          type="button"
          id="zoom-out"
          aria-label="Zoom out"
          title="Zoom out (-)"
          onClick={() => zoom(0.8)}
        >
          −
        </button>
        <span class="zoom" aria-live="off">{`${Math.round(view.scale * 100)}%`}</span>
        <button
          type="button"
          id="zoom-in"
          aria-label="Zoom in"
          title="Zoom in (+)"
          onClick={() => zoom(1.25)}
        >
          +
        </button>
        <button type="button" id="fit" title="Show the whole flow (0)" onClick={fit}>
          Fit
        </button>
      </div>
      <div
        class="diagram"
        ref={pane}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the pane takes the keys that zoom and pan it
        tabIndex={0}
        role="application"
        aria-roledescription="diagram"
        aria-label={`Flow diagram${flow ? ` of ${flow.name}` : ''}: + and - zoom, 0 fits, arrow keys pan`}
        onKeyDown={onKey}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
      >
        <svg id="diagram" width="100%" height="100%" aria-labelledby="diagram-title">
          <title id="diagram-title">{flow ? `The flow ${flow.name}` : 'No flow'}</title>
          <defs>
            {['arrow', 'arrow-taken'].map((id) => (
              <marker
                key={id}
                id={id}
                viewBox="0 0 10 10"
                refX="9"
                refY="5"
                markerUnits="userSpaceOnUse"
                markerWidth="9"
                markerHeight="9"
                orient="auto"
              >
                <path d="M0,0 L10,5 L0,10 z" />
              </marker>
            ))}
          </defs>
          <g class="viewport" transform={`translate(${view.x} ${view.y}) scale(${view.scale})`}>
            {layout?.transitions.map((t) => {
              const taken = took(call, t.from, t.to);
              const p: DiagramPick = { kind: 'edge', from: t.from, to: t.to };
              const [first, ...rest] = t.points;
              const d = first ? `M${first.x} ${first.y}${rest.map((q) => ` L${q.x} ${q.y}`).join('')}` : '';
              const from = t.from === ANY_STATE ? 'any state' : t.from;
              const top = t.label.y - t.label.height / 2;
              return (
                // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a <button>
                <g
                  key={`${t.from}>${t.to}`}
                  class={`transition${taken ? ' taken' : ''}${isPicked(p) ? ' picked' : ''}`}
                  data-from={t.from}
                  data-to={t.to}
                  role="button"
                  tabIndex={0}
                  // The name starts with the text drawn, as read (the wrapped lines, one after the other).
                  aria-label={`${t.label.lines.join(' ')}: arrow from ${from} to ${t.to}`}
                  onClick={() => pick(p)}
                  onKeyDown={keyPick(p)}
                >
                  <title>{`${from} → ${t.to}: ${t.label.text}`}</title>
                  <path class="edge-hit" d={d} />
                  <path
                    class={`edge${taken ? ' path' : ''}`}
                    d={d}
                    marker-end={taken ? 'url(#arrow-taken)' : 'url(#arrow)'}
                  />
                  {/* The arrow does not run through its label. */}
                  <rect
                    class="edge-label-bg"
                    x={t.label.x - t.label.width / 2 - 2}
                    y={top - 1}
                    width={t.label.width + 4}
                    height={t.label.height + 2}
                    rx={3}
                  />
                  <text
                    class={`edge-label${taken ? ' path' : ''}`}
                    x={t.label.x}
                    y={top}
                    text-anchor="middle"
                  >
                    {t.label.lines.map((line, i) => (
                      <tspan key={i} x={t.label.x} y={top + (i + 1) * LABEL_LINE - 3}>
                        {i < t.label.lines.length - 1 ? `${line} ` : line}
                      </tspan>
                    ))}
                  </text>
                </g>
              );
            })}
            {layout?.states.map((s) => {
              if (s.name === ANY_STATE)
                return (
                  <g key={s.name} class="any-state" transform={`translate(${s.x},${s.y})`}>
                    <title>The flow-wide handlers (on: ...) go from whatever state the call is in</title>
                    <rect width={s.width} height={s.height} />
                    <text x={10} y={21}>
                      {s.label}
                    </text>
                  </g>
                );
              const isActive = active === s.name;
              const p: DiagramPick = { kind: 'state', state: s.name };
              const visit = path.indexOf(s.name);
              const cls = `state${isActive ? ' active' : ''}${visit >= 0 ? ' visited' : ''}${
                s.name === flow?.graph.start ? ' start' : ''
              }${isPicked(p) ? ' picked' : ''}`;
              return (
                // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a <button>
                <g
                  key={s.name}
                  class={cls}
                  data-state={s.name}
                  transform={`translate(${s.x},${s.y})`}
                  role="button"
                  tabIndex={0}
                  aria-label={`state ${s.name}${isActive ? ' (the call is here)' : visit >= 0 ? ' (visited)' : ''}`}
                  onClick={() => pick(p)}
                  onKeyDown={keyPick(p)}
                >
                  {isActive ? (
                    <rect class="halo" x={-5} y={-5} width={s.width + 10} height={s.height + 10} />
                  ) : null}
                  <rect class="box" width={s.width} height={s.height} />
                  <text x={10} y={21}>
                    {s.name}
                  </text>
                </g>
              );
            })}
          </g>
        </svg>
      </div>
    </div>
  );
}
