import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { CallView } from './ConsoleStore.ts';
import { ANY_STATE, layoutFlow } from './layoutFlow.ts';
import type { FlowDescription } from './types.ts';

/** Whether the call went straight from `from` to `to` at some point. */
function took(path: readonly string[], from: string, to: string): boolean {
  for (let i = 1; i < path.length; i++) if (path[i - 1] === from && path[i] === to) return true;
  return false;
}

/**
 * The flow as a state diagram (the graph of `ringflow graph`, laid out by layoutFlow): the
 * selected call's active state lit, the states it went through and the arrows it took drawn;
 * each arrow says which ways lead along it. Clicking a state shows its steps.
 */
export function Diagram(props: {
  readonly flow: FlowDescription | undefined;
  readonly call: CallView | undefined;
  readonly onState: (state: string) => void;
}) {
  const { flow, call } = props;
  const layout = useMemo(() => (flow ? layoutFlow(flow.graph) : undefined), [flow]);
  const path = call?.path ?? [];
  const width = Math.max(layout?.width ?? 0, 300);
  const height = Math.max(layout?.height ?? 0, 120);
  const box = useRef<HTMLDivElement>(null);
  const active = call && !call.ended ? call.state : null;
  // A large flow scrolls in its box: the state the call is in is brought into view as it changes.
  useEffect(() => {
    if (active)
      box.current?.querySelector('.state.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active, call?.id]);
  return (
    <div class="diagram" ref={box}>
      <svg id="diagram" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img">
        <title>{flow ? `The flow ${flow.name}` : 'No flow'}</title>
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
        {layout?.transitions.map((t) => {
          const taken = took(path, t.from, t.to);
          const [first, ...rest] = t.points;
          const d = first ? `M${first.x} ${first.y}${rest.map((p) => ` L${p.x} ${p.y}`).join('')}` : '';
          return (
            <g key={`${t.from}>${t.to}`} data-from={t.from} data-to={t.to}>
              <path
                class={`edge${taken ? ' path' : ''}`}
                d={d}
                marker-end={taken ? 'url(#arrow-taken)' : 'url(#arrow)'}
              >
                <title>{t.labels.join(', ')}</title>
              </path>
              {/* The arrow does not run through its label. */}
              <rect
                class="edge-label-bg"
                x={t.label.x - t.label.width / 2 - 2}
                y={t.label.y - 7}
                width={t.label.width + 4}
                height={14}
              />
              <text
                class={`edge-label${taken ? ' path' : ''}`}
                x={t.label.x}
                y={t.label.y + 4}
                text-anchor="middle"
              >
                {t.label.text}
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
          const active = call?.state === s.name && !call.ended;
          const cls = `state${active ? ' active' : ''}${path.includes(s.name) ? ' visited' : ''}${
            s.name === flow?.graph.start ? ' start' : ''
          }`;
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a <button>
            <g
              key={s.name}
              class={cls}
              data-state={s.name}
              transform={`translate(${s.x},${s.y})`}
              role="button"
              tabIndex={0}
              aria-label={`state ${s.name}`}
              onClick={() => props.onState(s.name)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') props.onState(s.name);
              }}
            >
              <rect width={s.width} height={s.height} />
              <text x={10} y={21}>
                {s.name}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
