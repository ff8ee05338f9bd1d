import type { CallView } from './ConsoleStore.ts';
import { ANY_STATE, type FlowStep } from './types.ts';

const timeOf = (at: number) => new Date(at).toISOString().slice(11, 23);
const valueText = (value: unknown) => (value === undefined ? '(not set)' : JSON.stringify(value));

function StepItem({ step, number }: { readonly step: FlowStep; readonly number: number }) {
  const moved = step.from !== step.to;
  return (
    <li class="flow-step" data-event={step.event}>
      <div class="step-head">
        <span class="step-number">#{number}</span>
        <b class="step-event">{step.event}</b>
        <time class="step-time">{timeOf(step.at)}</time>
      </div>
      <table class="step-changes">
        <tbody>
          <tr class="step-state">
            <th scope="row">state</th>
            <td>
              {moved ? (
                <>
                  <span class="before">{step.from}</span> → <span class="after">{step.to}</span>
                  {step.via === ANY_STATE ? <span class="muted"> (flow-wide handler)</span> : null}
                </>
              ) : (
                <span>{step.to} (stayed)</span>
              )}
            </td>
          </tr>
          {step.vars.map((v) => (
            <tr key={v.name} class="step-var" data-var={v.name}>
              <th scope="row">{v.name}</th>
              <td>
                <span class="before">{valueText(v.before)}</span> →{' '}
                <span class="after">{valueText(v.after)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </li>
  );
}

/**
 * What each event did to the selected call's flow, newest first: the event, the state before and
 * after, each variable it changed before and after. With the time paused, each step adds one.
 */
export function Steps(props: { readonly call: CallView | undefined }) {
  const { call } = props;
  if (!call) return <p class="muted">Select a call to see what each event did to its flow.</p>;
  if (call.steps.length === 0) return <p class="muted">No step of {call.id} yet.</p>;
  const steps = call.steps.map((step, i) => ({ step, number: i + 1 })).reverse();
  return (
    <ol id="flow-steps" class="flow-steps" aria-label={`Steps of ${call.id}, newest first`}>
      {steps.map(({ step, number }) => (
        <StepItem key={number} step={step} number={number} />
      ))}
    </ol>
  );
}
