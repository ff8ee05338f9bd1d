import type { FlowDescription } from './types.ts';

/** The steps of the state clicked on the diagram, each with where it is written (`file:line:col`). */
export function StateSteps(props: {
  readonly flow: FlowDescription | undefined;
  readonly state: string | null;
}) {
  const { flow, state } = props;
  const steps = state && flow ? (flow.states[state] ?? []) : [];
  return (
    <>
      <h2>State</h2>
      <div id="steps">
        {state
          ? [`state ${state}`, ...steps.map((s) => `${s.at}  ${JSON.stringify(s.step)}`)].join('\n')
          : ''}
      </div>
    </>
  );
}
