import { INPUT_TYPES } from '../inputs/convertFlowInputs.ts';
import { steps } from '../steps/index.ts';
import { type Infer, s } from '../schema/s.ts';
import { FLOW_NAME, flowNameHint } from './flowName.ts';
import { mediaListSchema } from './media.ts';
import { STATE_NAME, targetSchema, type transitionSchema, transitionsSchema } from './transition.ts';

const LANGUAGE = /^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/;

type StepParamSchemas = { [K in keyof typeof steps]: (typeof steps)[K]['params'] };

function stepParamSchemas(): StepParamSchemas {
  const out: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(steps)) out[name] = definition.params;
  return out as StepParamSchemas;
}

/** A step: a one-key mapping naming the step, or a bare name for steps without required fields. */
export const stepSchema = s.named('Step', () =>
  s.keyed(
    'step',
    stepParamSchemas(),
    (Object.keys(steps) as (keyof typeof steps)[]).filter((k) => steps[k].bare),
    { description: 'A step: one key naming it (answer, play, menu, ...) with its options.' },
  ),
);

const chooseEntry = s.object(
  {
    when: s.optional(
      s.condition({
        description:
          'Condition; the first entry whose condition holds is taken. Omit on the last entry for "otherwise".',
      }),
    ),
    goto: targetSchema,
    set: s.optional(s.record(s.value(s.any()), { description: 'Variables to assign on the way.' })),
  },
  { description: 'One branch of choose.' },
);

const onSchema = s.record(transitionsSchema, {
  description:
    'Event name -> transition. Events: hangup, dtmf, userEvent, userEvent:<Name>, textMessage, talkingStarted, talkingFinished, hold, unhold, deviceState, error, or a server event type.',
});

export const stateSchema = s.named('State', () =>
  s.object(
    {
      description: s.optional(s.string({ description: 'What this state is for (shown in diagrams).' })),
      steps: s.optional(
        s.array(stepSchema, { description: 'Steps run in order when the state is entered.' }),
      ),
      next: s.optional(transitionsSchema),
      choose: s.optional(
        s.array(chooseEntry, {
          minItems: 1,
          description: 'Ordered conditions evaluated after the steps; the first that holds is taken.',
        }),
      ),
      on: s.optional(onSchema),
      after: s.optional(
        s.record(transitionsSchema, {
          description: 'Timers: duration since the state was entered -> transition.',
          keyPattern: /^\d+(\.\d+)?(ms|s|m|h)?$/,
          keyHint: 'a duration such as 30s, 500ms or 2m',
        }),
      ),
      final: s.optional(
        s.boolean({
          description: "The flow ends after this state's steps (a subflow returns `output`).",
          default: false,
        }),
      ),
      output: s.optional(
        s.record(s.value(s.any()), {
          description: 'For final states: the output handed back (name -> literal or { expr }).',
        }),
      ),
    },
    {
      description:
        'A state: steps run on entry, then `next`/`choose`, or wait for `on` events and `after` timers.',
    },
  ),
);

const inputSchema = s.object(
  {
    type: s.enum(INPUT_TYPES, {
      description:
        'The input type; given values are converted to it (a duration becomes a number of seconds).',
    }),
    default: s.optional(s.any({ description: 'Used when the input is not given.' })),
    required: s.optional(
      s.boolean({ default: false, description: 'Fail at start when it is missing and has no default.' }),
    ),
    description: s.optional(s.string()),
  },
  { description: 'A flow input.' },
);

const flowBodyProps = {
  description: s.optional(s.string({ description: 'What the flow does.' })),
  language: s.optional(
    s.string({
      description: 'Default language of prompts (e.g. en, fr, en_GB).',
      pattern: LANGUAGE,
      patternHint: 'a language code such as en, fr or en_GB',
      default: 'en',
    }),
  ),
  inputs: s.optional(
    s.record(inputSchema, {
      description: 'Inputs of the flow, with defaults.',
      keyPattern: FLOW_NAME,
      keyHint: flowNameHint('an input'),
    }),
  ),
  vars: s.optional(
    s.record(s.any(), {
      description: 'Flow variables and their initial values.',
      keyPattern: FLOW_NAME,
      keyHint: flowNameHint('a variable'),
    }),
  ),
  prompts: s.optional(
    s.record(s.record(mediaListSchema, { keyPattern: FLOW_NAME, keyHint: flowNameHint('a prompt') }), {
      description: 'The prompt catalogue: language -> prompt name -> media.',
      keyPattern: LANGUAGE,
      keyHint: 'a language code such as en, fr or en_GB',
    }),
  ),
  start: targetSchema,
  on: s.optional(onSchema),
  states: s.record(stateSchema, {
    description: 'The states, by name.',
    keyPattern: STATE_NAME,
    keyHint: flowNameHint('a state'),
  }),
};

/** A call queue the flow's `queue` steps put callers in (shared by every call of the application). */
export const queueSchema = s.object(
  {
    agents: s.array(
      s.string({
        description: 'An agent: the endpoint rung for a caller, e.g. PJSIP/alice.',
        pattern: /^[^/\s]+\/\S+$/,
        patternHint: 'an endpoint like PJSIP/alice',
      }),
      {
        description:
          'The agents answering the queue, logged in from the start (more can log in with queueAgent).',
      },
    ),
    strategy: s.optional(
      s.enum(['ringAll', 'roundRobin', 'longestIdle', 'fewestCalls'], {
        description:
          'Which free agent rings for the caller at the head: ringAll (all of them; the first to answer wins), roundRobin (the next one after the last rung), longestIdle (the one whose last call ended longest ago), fewestCalls (the one who took fewest calls).',
        default: 'ringAll',
      }),
    ),
    ringTimeout: s.optional(
      s.duration({
        description: 'How long an offer rings an agent before the caller is offered again.',
        default: '15s',
      }),
    ),
    wrapUp: s.optional(s.duration({ description: 'How long an agent rests after a call.', default: '10s' })),
    retry: s.optional(
      s.duration({
        description: 'How long an agent who did not answer (or was busy) is left alone.',
        default: '5s',
      }),
    ),
    musicClass: s.optional(
      s.string({ description: 'The music on hold class callers hear (the server default when not given).' }),
    ),
  },
  { description: 'A call queue: callers wait with music until one of its agents answers.' },
);

/** A subflow: a flow without its own subflows (all subflows of a document are siblings). */
export const subflowSchema = s.named('Subflow', () =>
  s.object(flowBodyProps, { description: 'A reusable flow called with the subflow step.' }),
);

/** The whole document: the one model behind YAML files, the TypeScript builder and the JSON Schema. */
export const flowSchema = s.object(
  {
    name: s.string({
      description: 'Flow name.',
      pattern: /^[A-Za-z0-9_.-]+$/,
      patternHint: 'letters, digits, ".", "_" and "-"',
    }),
    version: s.optional(
      s.integer({ min: 1, max: 1, default: 1, description: 'Version of the flow format (1).' }),
    ),
    ...flowBodyProps,
    subflows: s.optional(
      s.record(subflowSchema, {
        description: 'Flows reused with the subflow step.',
        keyPattern: FLOW_NAME,
        keyHint: flowNameHint('a subflow'),
      }),
    ),
    queues: s.optional(
      s.record(queueSchema, {
        description: 'Call queues by name, for the queue and queueAgent steps (the flow and its subflows).',
        keyPattern: FLOW_NAME,
        keyHint: flowNameHint('a queue'),
      }),
    ),
  },
  { description: 'A ringflow call flow.' },
);

export type FlowDocument = Infer<typeof flowSchema>;
export type SubflowDocument = Infer<typeof subflowSchema>;
export type QueueDocument = Infer<typeof queueSchema>;
export type StateDocument = Infer<typeof stateSchema>;
export type StepDocument = Infer<typeof stepSchema>;
export type TransitionDocument = Infer<typeof transitionSchema>;
