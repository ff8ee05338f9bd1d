import type { FlowDescription } from './types.ts';

/** The flows' errors since their last save (`file:line:col code message`), or nothing. */
export function FlowErrors(props: { readonly flows: readonly FlowDescription[] }) {
  return (
    <div id="errors" role="alert">
      {props.flows
        .filter((f) => f.error)
        .map((f) => f.error)
        .join('\n')}
    </div>
  );
}
