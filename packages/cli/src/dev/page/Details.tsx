import type { ComponentChildren } from 'preact';
import type { DiagramPick } from './Diagram.tsx';
import { ANY_STATE } from './layoutFlow.ts';
import type { FlowDescription } from './types.ts';

type Steps = FlowDescription['states'][string];

/** `file:line:col` as a link that opens the file at that place in the editor (VS Code's URL scheme). */
function Place({ at }: { readonly at: string }) {
  const place = /^(.*):(\d+):(\d+)$/.exec(at);
  if (!place) return <code class="place">{at}</code>;
  return (
    <a
      class="place"
      href={`vscode://file${place[1]?.startsWith('/') ? '' : '/'}${at}`}
      title={`Open ${at} in the editor`}
    >
      {at}
    </a>
  );
}

/** A step in one short line of YAML-like text (`menu: prompt=hello, choices={"1":"sales"}`). */
function stepText(step: unknown): string {
  if (typeof step === 'string') return step;
  if (step === null || typeof step !== 'object') return JSON.stringify(step);
  return Object.entries(step)
    .map(([kind, args]) =>
      args !== null && typeof args === 'object' && !Array.isArray(args)
        ? `${kind}: ${Object.entries(args)
            .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
            .join(', ')}`
        : `${kind}: ${typeof args === 'string' ? args : JSON.stringify(args)}`,
    )
    .join('; ');
}

function StepList({ steps }: { readonly steps: Steps }) {
  if (steps.length === 0) return <p class="muted">No steps.</p>;
  return (
    <ol class="steps">
      {steps.map((s, i) => (
        <li key={i}>
          <Place at={s.at} />
          <span class="step">{stepText(s.step)}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * What is picked on the diagram: a state's steps, each with where it is written (`file:line:col`,
 * a link to the editor); an arrow's ways in full and the steps of the state it leaves, where they
 * are written.
 */
export function Details(props: {
  readonly flow: FlowDescription | undefined;
  readonly picked: DiagramPick | null;
}) {
  const { flow, picked } = props;
  let body: ComponentChildren;
  if (!flow || !picked)
    body = <p class="muted">Click a state or an arrow of the diagram to see its steps.</p>;
  else if (picked.kind === 'state')
    body = (
      <>
        <h3>
          state <b>{picked.state}</b>
        </h3>
        <StepList steps={flow.states[picked.state] ?? []} />
      </>
    );
  else {
    const ways =
      flow.graph.transitions.find((t) => t.from === picked.from && t.to === picked.to)?.labels ?? [];
    const from = picked.from === ANY_STATE ? 'any state' : picked.from;
    body = (
      <>
        <h3>
          <b>{from}</b> → <b>{picked.to}</b>
        </h3>
        <ul class="ways">
          {ways.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
        {picked.from === ANY_STATE ? (
          <p class="muted">A flow-wide handler (on: …): it leads there from whatever state the call is in.</p>
        ) : (
          <>
            <h4>steps of {from}</h4>
            <StepList steps={flow.states[picked.from] ?? []} />
          </>
        )}
      </>
    );
  }
  return (
    <div id="steps" class="details">
      {body}
    </div>
  );
}
