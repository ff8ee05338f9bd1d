import { type Infer, s } from '../schema/s.ts';
import { diagnostic } from '../validate/Diagnostic.ts';
import { FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';
import { compileDetectMachine } from './detectMachineChart.ts';

const params = stepParams(
  {
    channel: s.optional(
      s.value(
        s.string({
          description:
            "The answered channel to listen to: a dialled leg (`{ expr: vars.leg.channelId }` after a dial with bridge: false). Default: the call's own channel (a call placed to the callee).",
        }),
      ),
    ),
    detector: s.optional(
      s.enum(['talk', 'server'], {
        description:
          "talk: the application decides from the server's talk detection (greeting length, silence after it). server: the channel continues into a dialplan place that runs AMD() and comes back to the application (see docs/transfers.md for the dialplan).",
        default: 'talk',
      }),
    ),
    dialplan: s.optional(
      s.object(
        {
          context: s.optional(
            s.string({ description: 'Context of the AMD() place.', default: 'ringflow-amd' }),
          ),
          extension: s.optional(s.string({ description: 'Its extension.', default: 's' })),
          priority: s.optional(s.integer({ min: 1, description: 'Its priority.', default: 1 })),
        },
        { description: 'detector: server: where AMD() runs; it ends with Stasis(${RINGFLOW_AMD_APP}).' },
      ),
    ),
    waitForBeep: s.optional(
      s.boolean({
        description:
          'On a machine, keep listening for the beep that follows its greeting: outcome beep when it is over (leave the message then), machine when none came within beepTimeout.',
        default: true,
      }),
    ),
    beepTimeout: s.optional(s.duration({ description: 'How long to wait for the beep.', default: '20s' })),
    initialSilence: s.optional(
      s.duration({
        description: 'talk: silence before any greeting that means a machine.',
        default: '2500ms',
      }),
    ),
    greeting: s.optional(
      s.duration({ description: 'talk: a greeting longer than this is a machine.', default: '1500ms' }),
    ),
    afterGreetingSilence: s.optional(
      s.duration({
        description: 'talk: silence after a short greeting that means a person.',
        default: '800ms',
      }),
    ),
    maximumWords: s.optional(
      s.integer({ min: 1, description: 'talk: this many stretches of speech is a machine.', default: 3 }),
    ),
    totalAnalysisTime: s.optional(
      s.duration({ description: 'talk: no decision within this time is notSure.', default: '5s' }),
    ),
  },
  'Tells a person from an answering machine on an answered call.',
);

/** The parameters of a detectMachine step. */
export type DetectMachineParams = Infer<typeof params>;

const FIGURES = {
  detector: ['string', 'talk or server'],
  status: ['string', 'HUMAN, MACHINE or NOTSURE (the AMDSTATUS of the server detector)'],
  cause: [
    'string',
    'why (AMDCAUSE style: LONGGREETING-1600-1500, HUMAN-800-800, MAXWORDS-3-3, TOOLONG-5000)',
  ],
  greetingMs: ['int', 'talk: milliseconds of speech heard before the decision'],
  words: ['int', 'talk: stretches of speech heard before the decision'],
} as const;

/**
 * detectMachine: after the callee answered, tells a person from an answering machine.
 * @example
 *   - detectMachine: { as: amd, on: { human: talk, beep: leave-message, machine: leave-message, notSure: bye } }
 * Outcomes: human, machine (no beep waited for, or none came), beep (a machine's beep just ended:
 * speak now), notSure, failed. The figures are in the result (`vars.<as>`).
 */
export const detectMachineStep = defineStep({
  name: 'detectMachine',
  description: 'Tells a person from an answering machine on an answered call.',
  params,
  bare: true,
  outcomes: [
    { name: 'human', kind: 'success', description: 'A person answered.', data: FIGURES },
    {
      name: 'machine',
      kind: 'success',
      description: 'An answering machine (its beep not waited for, or none heard in time).',
      data: FIGURES,
    },
    {
      name: 'beep',
      kind: 'success',
      description: 'An answering machine whose beep just ended: it records from now on.',
      data: FIGURES,
    },
    { name: 'notSure', kind: 'success', description: 'No decision in time.', data: FIGURES },
    FAILED,
  ],
  possibleOutcomes: (p) =>
    p.waitForBeep === false
      ? ['human', 'machine', 'notSure', 'failed']
      : ['human', 'machine', 'beep', 'notSure', 'failed'],
  label: (p) => `detect machine (${p.detector ?? 'talk'})`,
  check: (p, path) =>
    p.detector === 'server' && p.channel === undefined
      ? [
          diagnostic(
            'missing-field',
            [...path, 'detector'],
            "detector: server sends the channel into the dialplan and back; the call's own channel leaving the application ends the call here. Give `channel` (a dialled leg), or use detector: talk.",
          ),
        ]
      : p.detector !== 'server' && p.dialplan !== undefined
        ? [
            diagnostic('invalid-value', [...path, 'dialplan'], 'dialplan applies to detector: server only.', {
              target: 'key',
            }),
          ]
        : [],
  compile: (p, build) => compileDetectMachine(p, build),
});
