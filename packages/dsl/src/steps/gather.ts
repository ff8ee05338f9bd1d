import { type DigitEntryRules, type KeyVerdict, pressKey } from '@ringflow/runtime/engine';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { failureData, isOwnChannel, setStep } from '../compile/effects.ts';
import { playFragment } from '../compile/playFragment.ts';
import { resolveMedia } from '../compile/resolveMedia.ts';
import { type StateSpec, type TransitionSpec, withActions, withGuard } from '../compile/StateSpec.ts';
import { playableFields } from '../model/media.ts';
import { type Infer, parseDuration, s } from '../schema/s.ts';
import { FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

const DTMF = /^[0-9*#A-D]+$/;

const params = stepParams(
  {
    ...playableFields,
    minDigits: s.optional(
      s.integer({ min: 0, max: 64, default: 1, description: 'Fewer digits than this is a no-match.' }),
    ),
    maxDigits: s.optional(
      s.integer({
        min: 1,
        max: 64,
        default: 1,
        description: 'Collection ends as soon as this many digits were pressed.',
      }),
    ),
    terminator: s.optional(
      s.enum(['#', '*', 'none'], {
        description: 'A key that ends collection early (not part of the digits); "none" for no terminator.',
        default: '#',
      }),
    ),
    firstDigitTimeout: s.optional(
      s.duration({ description: 'How long to wait for the first digit after the prompt.', default: '5s' }),
    ),
    interDigitTimeout: s.optional(
      s.duration({ description: 'How long to wait for each further digit.', default: '3s' }),
    ),
    validDigits: s.optional(
      s.string({
        description: 'Keys accepted; any other key ends collection with noMatch.',
        default: '0123456789*#',
        pattern: DTMF,
        patternHint: 'DTMF keys (0-9, *, #, A-D)',
      }),
    ),
  },
  'Plays an optional prompt (interruptible) and collects DTMF digits.',
);

type GatherParams = Infer<typeof params>;

/** The collection rules, shared with tests and the README. */
export function gatherSettings(p: GatherParams) {
  return {
    minDigits: p.minDigits ?? 1,
    maxDigits: p.maxDigits ?? Math.max(1, p.minDigits ?? 1),
    terminator: p.terminator === 'none' ? undefined : (p.terminator ?? '#'),
    firstDigitTimeoutMs: parseDuration(p.firstDigitTimeout ?? '5s') ?? 5000,
    interDigitTimeoutMs: parseDuration(p.interDigitTimeout ?? '3s') ?? 3000,
    validDigits: p.validDigits ?? '0123456789*#',
  };
}

/**
 * gather: collects digits. Outcomes: collected (`event.digits`, `event.terminated`),
 * noInput (nothing pressed before the first-digit timeout), noMatch (a key outside validDigits,
 * or fewer than minDigits), failed (the prompt could not be played).
 */
export const gatherStep = defineStep({
  name: 'gather',
  description: 'Plays an optional prompt (interruptible) and collects DTMF digits.',
  params,
  bare: false,
  sounds: [{ at: [] }],
  outcomes: [
    {
      name: 'collected',
      kind: 'success',
      description: 'Enough digits were collected.',
      data: {
        digits: ['string', 'the digits (without the terminator)'],
        terminated: ['bool', 'true when the terminator ended collection'],
      },
    },
    {
      name: 'noInput',
      kind: 'success',
      description: 'No key was pressed in time.',
      data: { digits: ['string', 'empty'] },
    },
    {
      name: 'noMatch',
      kind: 'success',
      description: 'An invalid key, or too few digits.',
      data: { digits: ['string', 'what was pressed'] },
    },
    FAILED,
  ],
  label: (p) => `gather ${p.minDigits ?? 1}-${p.maxDigits ?? p.minDigits ?? 1} digits`,
  compile: (p, build) => {
    const rules = gatherSettings(p);
    const digitsOf = (context: ActionArgs['context']) => String(context.step.digits ?? '');
    const result = ({ context }: ActionArgs) => ({
      digits: digitsOf(context),
      terminated: context.step.terminated === true,
    });
    // The entry rules are the runtime's (`pressKey`), shared with its `collectDigits` actor.
    const entry: DigitEntryRules = {
      maxDigits: rules.maxDigits,
      terminators: rules.terminator ?? '',
      validDigits: rules.validDigits,
      firstDigitTimeoutMs: rules.firstDigitTimeoutMs,
      interDigitTimeoutMs: rules.interDigitTimeoutMs,
    };
    const verdictOf = ({ context, event }: ActionArgs) =>
      pressKey(entry, digitsOf(context), String(event.digit ?? ''));
    const addDigit = setStep((args) => {
      const verdict = verdictOf(args);
      if (verdict.kind === 'terminator') return { terminated: true };
      if (verdict.kind === 'invalid') return { invalid: true, digits: verdict.digits };
      return { digits: verdict.digits };
    });
    /**
     * What a key does, decided on the key event itself (one microstep per key: the guards see the
     * key before `addDigit` adds it). XState takes the first transition whose guard holds: the
     * terminator ends collection, a key outside validDigits is a no-match, the last digit wanted
     * completes it, else wait for more. The caller's channel is checked by whoever listens (the
     * prompt, or the waiting states below).
     */
    const is = (kind: KeyVerdict['kind']) => (args: ActionArgs) => verdictOf(args).kind === kind;
    const onKey: TransitionSpec[] = [
      { guard: is('terminator'), actions: [addDigit], target: 'ended' },
      withGuard(withActions(build.exit('noMatch', result), [addDigit]), is('invalid')),
      withGuard(withActions(build.exit('collected', result), [addDigit]), is('complete')),
      { actions: [addDigit], target: 'more', reenter: true },
    ];
    const onOwnKey = onKey.map((t) => withGuard(t, isOwnChannel));
    const hasPrompt = p.prompt !== undefined || p.media !== undefined;
    const states: Record<string, StateSpec> = {
      first: {
        on: { ChannelDtmfReceived: onOwnKey },
        after: { [rules.firstDigitTimeoutMs]: { target: 'ended' } },
      },
      more: {
        on: { ChannelDtmfReceived: onOwnKey },
        after: { [rules.interDigitTimeoutMs]: { target: 'ended' } },
      },
      ended: {
        always: [
          {
            guard: ({ context }) => digitsOf(context).length === 0 && context.step.terminated !== true,
            ...build.exit('noInput', result),
          },
          {
            guard: ({ context }) => digitsOf(context).length >= rules.minDigits,
            ...build.exit('collected', result),
          },
          build.exit('noMatch', result),
        ],
      },
    };
    if (hasPrompt)
      states.prompt = playFragment({
        scratch: 'playback',
        media: (args) => resolveMedia(p, args, build.flow),
        onFinished: { target: 'first' },
        onFailed: build.exit('failed', failureData),
        onDigit: onKey,
      });
    return {
      initial: hasPrompt ? 'prompt' : 'first',
      entry: [setStep(() => ({ digits: '', terminated: false, invalid: false }))],
      states,
    };
  },
});
