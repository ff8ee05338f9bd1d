import { type Schema, s } from '@ringflow/dsl';
import { botExpectationSchema, botSchema, saySchema } from './agents/botScenarioSchema.ts';
import { httpAnswersSchema, httpExpectationSchema } from './http/httpScenarioSchema.ts';
// The vocabulary alone (`@ringflow/runtime/call-end`): `ringflow validate` reads scenario files
// without loading the runtime.
import { CALL_END_STATUSES, ENDED_BY } from '@ringflow/runtime/call-end';

/**
 * The shape of a scenario file (`<flow>.test.yaml`), written in the schema language flows use, so
 * that `checkValue` reports every unknown key (with "did you mean"), wrong type, bad duration and
 * bad value with its path, as it does for flows. What needs the flow or the rest of the file
 * (states, callers, inputs, operations) is checked while the file is read (loadScenarioFile).
 */

/** Steps of a scenario, by key. */
export const STEP_KEYS = [
  'wait',
  'press',
  'hangup',
  'talk',
  'say',
  'hangupFarEnd',
  'inject',
  'expect',
] as const;
export const FAR_ENDS = ['answer', 'busy', 'reject', 'noAnswer', 'unreachable'] as const;
/** How a call may end (`expect: { end: { status, by } }`): the runtime's one vocabulary. */
export const STATUSES = CALL_END_STATUSES;
export { ENDED_BY };
/** How the application and the server talk (ScenarioTransport). */
export const TRANSPORTS = ['http', 'socket', 'per-call'] as const;

/** Text a YAML writer may leave unquoted (`caller: 5551000`). */
const text = (description: string) => s.union([s.string({ description }), s.number()]);
const endpointPattern = /^[^/\s]+\/[^/\s]+$/;

/** Who calls: the fields a caller's call has (`call`, and each entry of `calls`). */
const callFields = {
  caller: s.optional(text('The calling number.')),
  callerName: s.optional(text('The calling name.')),
  extension: s.optional(text('The dialled extension.')),
  language: s.optional(text('The channel language.')),
  variables: s.optional(s.record(text('A channel variable.'))),
  args: s.optional(s.array(s.any(), { description: 'Stasis arguments.' })),
};

const callSchema = s.object({
  ...callFields,
  startAt: s.optional(
    s.string({
      description: 'When the scenario starts.',
      refine: {
        code: 'invalid-value',
        test: (v) =>
          Number.isFinite(Date.parse(String(v)))
            ? undefined
            : 'expected a date and time such as 2026-01-04T10:00:00Z',
      },
    }),
  ),
});

const callsEntrySchema = s.object({
  ...callFields,
  inputs: s.optional(s.record(s.any())),
  at: s.optional(s.duration({ description: 'When this caller calls, from the start.' })),
  flow: s.optional(s.string({ description: 'The flow (under flows:) this call enters.' })),
  answers: s.optional(
    s.string({
      pattern: endpointPattern,
      patternHint: 'the endpoint whose phone this party is, written tech/resource (PJSIP/agent)',
    }),
  ),
});

const farEndSchema = s.union([
  s.string({
    refine: {
      code: 'invalid-value',
      test: (v) =>
        (FAR_ENDS as readonly unknown[]).includes(v)
          ? undefined
          : `expected ${FAR_ENDS.join(', ')}, { answerAfter: <duration> }, { machine: { greeting: <duration>, beep: true } }, { human: { says: <duration> } }, or a list of those (one per successive call)`,
    },
  }),
  s.object({ answerAfter: s.duration() }),
  s.object({
    machine: s.object(
      {
        greeting: s.duration({ description: 'How long its greeting lasts.' }),
        beep: s.optional(s.boolean({ description: 'A beep after the greeting.' })),
        answerAfter: s.optional(s.duration({ description: 'How long it rings first.' })),
      },
      { description: 'An answering machine: answers, plays its greeting, then (beep: true) a beep.' },
    ),
  }),
  s.object({
    human: s.object(
      {
        says: s.duration({ description: 'How long they speak on answering ("hello?").' }),
        answerAfter: s.optional(s.duration({ description: 'How long it rings first.' })),
      },
      { description: 'A person: answers, says something short, then waits.' },
    ),
  }),
]);

const soundSchema = s.union([
  s.duration(),
  s.object({
    duration: s.duration(),
    languages: s.optional(s.array(s.string(), { description: 'Languages it exists in, e.g. [en, fr].' })),
  }),
]);

/** What the file and each scenario may set for their calls. */
const sharedFields = {
  call: s.optional(callSchema),
  // Entries may be empty (`moderator:`); their names are checked when read.
  calls: s.optional(s.record(s.union([callsEntrySchema, s.null()]))),
  inputs: s.optional(s.record(s.any())),
  farEnds: s.optional(
    s.record(s.union([farEndSchema, s.array(farEndSchema)]), {
      keyPattern: endpointPattern,
      keyHint: 'an endpoint written tech/resource, e.g. PJSIP/operator',
    }),
  ),
  dialplan: s.optional(text('extensions.conf text.')),
  transport: s.optional(
    s.enum(TRANSPORTS, {
      description:
        'How the application and the server talk: http (requests and an event stream), socket (the server dials one connection), per-call (one connection per call).',
    }),
  ),
  bot: s.optional(botSchema),
  http: s.optional(httpAnswersSchema),
  sounds: s.optional(
    s.record(soundSchema, {
      keyPattern: /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9_./-]*$/,
      keyHint: 'a sound name as played after sound: (acme/welcome)',
    }),
  ),
};

/** A state name or a list of them. */
const statesSchema = s.union([text('A state of the flow.'), s.array(text('A state of the flow.'))]);

const matcherSchema = s.union([
  s.string({ description: 'An operation (channels.play) or METHOD /path.' }),
  s.object({
    operation: s.optional(text('The operation, e.g. channels.play.')),
    method: s.optional(text('The HTTP method.')),
    path: s.optional(s.any()),
    params: s.optional(s.any()),
    times: s.optional(s.integer({ min: 0, description: 'How many times it was made.' })),
  }),
]);
const matchersSchema = s.union([matcherSchema, s.array(matcherSchema)]);

export const expectSchema = s.object({
  action: s.optional(matchersSchema),
  noAction: s.optional(matchersSchema),
  visited: s.optional(statesSchema),
  notVisited: s.optional(statesSchema),
  states: s.optional(statesSchema),
  state: s.optional(statesSchema),
  userEvent: s.optional(
    s.union([s.string(), s.object({ name: s.string(), variables: s.optional(s.any()) })]),
  ),
  end: s.optional(
    s.union([
      s.null(),
      s.object({
        status: s.optional(s.enum(STATUSES)),
        by: s.optional(s.enum(ENDED_BY)),
        within: s.optional(s.duration()),
        after: s.optional(s.duration()),
      }),
    ]),
  ),
  bridge: s.optional(
    s.object({
      id: s.optional(text('A bridge id.')),
      name: s.optional(text('A bridge name.')),
      calls: s.optional(s.array(s.any())),
    }),
  ),
  bot: s.optional(botExpectationSchema),
  http: s.optional(httpExpectationSchema),
  server: s.optional(
    s.object({
      channels: s.optional(s.integer({ min: 0 })),
      bridges: s.optional(s.integer({ min: 0 })),
      liveRecordings: s.optional(s.integer({ min: 0 })),
    }),
  ),
});

const stepBranches = {
  wait: s.duration(),
  talk: s.duration(),
  say: saySchema,
  press: s.union([
    s.string({ pattern: /^[0-9A-D*#]+$/i, patternHint: 'keys 0-9, *, #, A-D; quote them ("1", "*")' }),
    s.integer({ min: 0 }),
  ]),
  hangup: s.union([s.enum(['caller']), s.object({})]),
  hangupFarEnd: text('An endpoint, e.g. PJSIP/operator.'),
  inject: s.record(s.any()),
  expect: expectSchema,
};

/** One step; with several callers, a step may be one caller's (`- member: { press: "1" }`). */
function stepSchema(callers: readonly string[]): Schema<unknown> {
  const own = s.keyed('step', stepBranches, ['hangup']);
  const whose: Record<string, Schema<unknown>> = {};
  for (const caller of callers) if (!(STEP_KEYS as readonly string[]).includes(caller)) whose[caller] = own;
  return s.keyed('step', { ...stepBranches, ...whose }, ['hangup']);
}

/** One scenario, whose steps may name these callers. */
export function scenarioSchema(callers: readonly string[]) {
  return s.object({
    name: s.string({ description: 'The name of the scenario.' }),
    // Required, and not empty: told with the step names when read.
    steps: s.optional(s.array(stepSchema(callers))),
    ...sharedFields,
  });
}

/** The file; each scenario is checked on its own, with its callers (scenarioSchema). */
export const scenarioFileSchema = s.object({
  flow: s.optional(s.string({ description: 'The flow file, relative to this file.' })),
  flows: s.optional(s.record(s.string({ description: 'A flow file, relative to this file.' }))),
  // Required, and not empty: told when read.
  scenarios: s.optional(s.array(s.any())),
  ...sharedFields,
});
