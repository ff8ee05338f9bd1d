import { sendTo } from 'xstate';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { resolveValue, scopeOf } from '../compile/FlowContext.ts';
import { effect, setContext, setVars } from '../compile/effects.ts';
import type { FlowOutput } from '../compile/FlowHost.ts';
import type { Action } from '../compile/StateSpec.ts';
import { FLOW_NAME, flowNameHint } from '../model/flowName.ts';
import { parseDuration, s } from '../schema/s.ts';
import { HttpStepError } from './HttpStepError.ts';
import { httpRequestFields, resolveHttpRequest, sendHttpRequest } from './httpRequest.ts';
import { FAILED } from './restStep.ts';
import { checkSubflowCall } from './checkSubflowCall.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

/** set: assigns flow variables, each a literal or { expr }. Evaluated in order, so later ones see earlier ones. */
export const setStep = defineStep({
  name: 'set',
  description: 'Assigns flow variables (name -> literal or { expr }), in order.',
  params: s.record(s.value(s.any()), {
    description: 'Variable name -> value. Later entries see the earlier ones.',
    keyPattern: FLOW_NAME,
    keyHint: flowNameHint('a variable'),
  }),
  bare: false,
  instant: true,
  outcomes: [{ name: 'done', kind: 'success', description: 'The variables were assigned.' }, FAILED],
  label: (p) => `set ${Object.keys(p).join(', ')}`,
  compile: (p, build) => {
    // Evaluated once, in a guard-free step: a failing expression becomes the `failed` outcome.
    const compute = (args: ActionArgs): { vars?: Record<string, unknown>; error?: string } => {
      let vars = { ...args.context.vars };
      try {
        for (const [name, value] of Object.entries(p)) {
          vars = { ...vars, [name]: resolveValue(value, scopeOf({ ...args.context, vars }, args.event)) };
        }
        return { vars };
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
    return {
      always: [
        {
          guard: (args) => compute(args).error !== undefined,
          ...build.exit('failed', (args) => ({ message: compute(args).error })),
        },
        build.exit('done', undefined, [setVars((args) => compute(args).vars ?? {})]),
      ],
    };
  },
});

/** wait: waits (on the runtime clock). Outcome: done. */
export const waitStep = defineStep({
  name: 'wait',
  description: 'Waits for a while (events handled by the state still apply).',
  params: stepParams({ duration: s.duration({ description: 'How long.' }) }, 'Waits.'),
  bare: false,
  outcomes: [{ name: 'done', kind: 'success', description: 'The time has passed.' }],
  label: (p) => `wait ${p.duration}`,
  compile: (p, build) => ({ after: { [parseDuration(p.duration) ?? 0]: build.exit('done') } }),
});

const httpParams = stepParams(
  {
    ...httpRequestFields,
    timeout: s.optional(
      s.duration({
        default: '10s',
        description: 'Give up after this long (outcome failed, reason timeout).',
      }),
    ),
  },
  'Calls a webhook (JSON over HTTP).',
);

/**
 * http: calls a webhook. Outcomes: ok (2xx; `event.status`, `event.body` parsed as JSON when it
 * is JSON), failed (`event.status` for non-2xx answers, `event.reason`: status, timeout or network).
 */
export const httpStep = defineStep({
  name: 'http',
  description: 'Calls a webhook and routes on its answer.',
  params: httpParams,
  bare: false,
  outcomes: [
    {
      name: 'ok',
      kind: 'success',
      description: 'A 2xx answer.',
      data: { status: ['int', 'HTTP status'], body: ['dyn', 'the answer (JSON value or text)'] },
    },
    {
      name: 'failed',
      kind: 'failure',
      description: 'No 2xx answer in time.',
      data: {
        reason: ['string', 'status | timeout | network'],
        status: ['int', 'HTTP status when there was one'],
        body: ['dyn', 'the answer'],
        message: ['string', 'what went wrong'],
      },
    },
  ],
  label: () => 'http',
  compile: (p, build) => ({
    effect: effect(
      async (args) => {
        const { host } = args.context;
        const request = resolveHttpRequest(p, scopeOf(args.context, args.event));
        return sendHttpRequest(request, { clock: host.clock, ...(host.fetch ? { fetch: host.fetch } : {}) });
      },
      {
        onDone: build.exit('ok', ({ event }) => event.output as Record<string, unknown>),
        onError: build.exit('failed', ({ event }) => {
          const err = event.error;
          // Anything else thrown on the way (an expression that failed) counts as not reaching it.
          if (!(err instanceof HttpStepError))
            return { message: err instanceof Error ? err.message : undefined, reason: 'network' };
          return {
            message: err.message,
            reason: err.reason,
            ...(err.status !== undefined ? { status: err.status, body: err.body } : {}),
          };
        }),
      },
    ),
  }),
});

/**
 * subflow: runs another flow of the document (from its `subflows`) with inputs, as a child
 * machine that receives this call's events. Outcomes: done (`event.output`: the subflow's final
 * output), failed. If the caller hangs up inside it, this flow's hangup handling runs.
 */
export const subflowStep = defineStep({
  name: 'subflow',
  description: 'Runs a subflow with inputs and continues with its output.',
  params: stepParams(
    {
      flow: s.string({ description: 'Name of a flow under `subflows`.' }),
      inputs: s.optional(
        s.record(s.value(s.any()), { description: 'Inputs of the subflow (name -> literal or { expr }).' }),
      ),
    },
    'Runs a subflow.',
  ),
  bare: false,
  check: (p, path, scope) => checkSubflowCall(p, path, scope),
  outcomes: [
    {
      name: 'done',
      kind: 'success',
      description: 'The subflow reached a final state.',
      data: { output: ['map', 'the output of its final state'] },
    },
    { name: 'hungUp', kind: 'hangup', description: 'The caller hung up inside the subflow.' },
    { name: 'continued', kind: 'continued', description: 'The subflow sent the call on in the dialplan.' },
    { ...FAILED, data: { message: ['string', 'what went wrong'], error: ['dyn', "the subflow's error"] } },
  ],
  label: (p) => `subflow ${p.flow}`,
  compile: (p, build) => {
    const id = `subflow-${build.key}`;
    // XState's `sendTo` is typed against a machine's type parameters; as an engine `Action` it runs as is.
    const forward: Action = sendTo(id, ({ event }: ActionArgs) => event) as unknown as Action;
    const status =
      (want: FlowOutput['status']) =>
      ({ event }: ActionArgs) =>
        (event.output as FlowOutput | undefined)?.status === want;
    return {
      invoke: {
        id,
        src: build.flow.subflow(p.flow),
        input: (args: ActionArgs) => {
          const scope = scopeOf(args.context, args.event);
          const inputs: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(p.inputs ?? {})) inputs[k] = resolveValue(v, scope);
          return { host: args.context.host, call: args.context.call, input: inputs };
        },
        onDone: [
          {
            guard: status('completed'),
            ...build.exit('done', ({ event }) => ({ output: (event.output as FlowOutput).output ?? {} })),
          },
          {
            guard: status('hungUp'),
            ...build.exit('hungUp', undefined, [setContext(() => ({ hungUp: true }))]),
          },
          {
            guard: status('continued'),
            ...build.exit('continued', undefined, [setContext(() => ({ hungUp: true }))]),
          },
          build.exit('failed', ({ event }) => ({
            message: 'the subflow failed',
            error: (event.output as FlowOutput | undefined)?.error,
          })),
        ],
        onError: build.exit('failed', ({ event }) => ({
          message: String((event.error as Error | undefined)?.message ?? event.error),
        })),
      },
      // Every call event goes to the subflow, which owns the call while it runs.
      on: { '*': { actions: [forward] } },
    };
  },
});
