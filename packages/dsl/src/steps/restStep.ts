import type { ActionArgs } from '../compile/FlowContext.ts';
import { scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData } from '../compile/effects.ts';
import type { ExpressionScope } from '../expr/Expression.ts';
import type { Schema } from '../schema/s.ts';
import type { OutcomeSpec, StepDefinition } from './StepDefinition.ts';
import { defineStep } from './StepDefinition.ts';

export const DONE: OutcomeSpec = {
  name: 'done',
  kind: 'success',
  description: 'The server accepted the request.',
};
export const FAILED: OutcomeSpec = {
  name: 'failed',
  kind: 'failure',
  description: 'The request failed.',
  data: {
    message: ['string', 'what went wrong'],
    status: ['int', 'the HTTP status, when the server answered'],
    operation: ['string', 'the operation that failed (bridges.createWithId), when it was a request'],
    serverMessage: ['string', "the server's own explanation, when it gave one"],
    cause: ['string', 'refused, timeout, network, expression or other'],
    gone: ['bool', 'true when the request failed because the call is gone (the caller hung up)'],
  },
};

/**
 * A step that is one REST request: `done` when it succeeds, `failed` otherwise (a 404 on the
 * call's own channel means the caller is gone and runs the hangup handler instead).
 */
export function restStep<P>(definition: {
  name: string;
  description: string;
  params: Schema<P>;
  bare: boolean;
  run: (params: P, args: ActionArgs, scope: ExpressionScope) => Promise<unknown>;
  label?: (params: P) => string;
}): StepDefinition<P> {
  return defineStep<P>({
    name: definition.name,
    description: definition.description,
    params: definition.params,
    bare: definition.bare,
    outcomes: [DONE, FAILED],
    ...(definition.label ? { label: definition.label } : {}),
    compile: (params, build) => ({
      effect: effect((args) => definition.run(params, args, scopeOf(args.context, args.event)), {
        onDone: build.exit('done'),
        onError: build.exit('failed', failureData),
      }),
    }),
  });
}
