import type { ActionArgs } from '../compile/FlowContext.ts';
import { failureData, isOwnChannel, setStep } from '../compile/effects.ts';
import { playFragment } from '../compile/playFragment.ts';
import { resolveMedia } from '../compile/resolveMedia.ts';
import { type TransitionSpec, withActions, withGuard } from '../compile/StateSpec.ts';
import { mediaUriSchema, playableFields } from '../model/media.ts';
import { transitionsSchema } from '../model/transition.ts';
import { type Infer, parseDuration, s } from '../schema/s.ts';
import { FAILED } from './restStep.ts';
import { checkMenuChoices } from './checkMenuChoices.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

const retrySchema = (what: string) =>
  s.object(
    {
      max: s.optional(
        s.integer({
          min: 1,
          max: 20,
          default: 3,
          description: `After this many ${what} events the menu is exhausted.`,
        }),
      ),
      prompts: s.optional(
        s.array(s.string(), {
          description: `Catalogue prompts played before re-asking: the first after the first ${what}, the second after the second...; the last one repeats.`,
        }),
      ),
      media: s.optional(
        s.array(mediaUriSchema, {
          description: `Media played before re-asking, one per ${what} count like prompts (the last one repeats).`,
        }),
      ),
    },
    { description: `How ${what} is counted and announced.` },
  );

const params = stepParams(
  {
    ...playableFields,
    choices: s.record(transitionsSchema, {
      description: 'One key per choice (0-9, *, #) and where it goes.',
      keyPattern: /^[0-9*#A-D]$/,
      keyHint: 'one DTMF key (0-9, *, #, A-D); quote it in YAML: "1"',
    }),
    timeout: s.optional(
      s.duration({ description: 'How long to wait for a key after the prompt ends.', default: '5s' }),
    ),
    noInput: s.optional(retrySchema('no-input')),
    noMatch: s.optional(retrySchema('no-match')),
    maxAttempts: s.optional(
      s.integer({ min: 1, max: 50, description: 'Optional cap on attempts of any kind (prompt plays).' }),
    ),
  },
  'A menu: plays a prompt, waits for one key, routes it by choices; counts no-input and no-match separately with per-attempt prompts.',
);

export type MenuParams = Infer<typeof params>;

/** The counting rules in code form (see README "Menu counting rules"). */
export function menuSettings(p: MenuParams) {
  return {
    timeoutMs: parseDuration(p.timeout ?? '5s') ?? 5000,
    noInputMax: p.noInput?.max ?? 3,
    noMatchMax: p.noMatch?.max ?? 3,
    maxAttempts: p.maxAttempts,
  };
}

/** The retry announcement after the n-th no-input / no-match (1-based); the last entry repeats. */
function retryAnnouncement(
  retry: MenuParams['noInput'],
  count: number,
): { prompt?: string; media?: string } | undefined {
  if (!retry || count < 1) return undefined;
  const pick = <T>(list: readonly T[] | undefined) =>
    list && list.length > 0 ? list[Math.min(count, list.length) - 1] : undefined;
  const prompt = pick(retry.prompts);
  const media = pick(retry.media);
  if (prompt === undefined && media === undefined) return undefined;
  return { ...(prompt !== undefined ? { prompt } : {}), ...(media !== undefined ? { media } : {}) };
}

/**
 * menu: the classic IVR menu. Outcomes: choice (`event.digit`), exhausted (`event.reason` is
 * noInput, noMatch or maxAttempts), failed. Choices route straight to their transitions.
 */
export const menuStep = defineStep({
  name: 'menu',
  description: 'A menu with choices, retries, and separate no-input / no-match counting.',
  params,
  bare: false,
  sounds: [
    { at: [] },
    { at: ['noInput'], promptField: 'prompts' },
    { at: ['noMatch'], promptField: 'prompts' },
  ],
  check: (p, path) => checkMenuChoices(p, path),
  outcomes: [
    {
      name: 'choice',
      kind: 'success',
      description: 'A listed key was pressed; its choice transition is taken.',
      data: {
        digit: ['string', 'the key'],
        attempts: ['int', 'prompt plays so far'],
        noInputCount: ['int', 'no-inputs so far'],
        noMatchCount: ['int', 'no-matches so far'],
      },
    },
    {
      name: 'exhausted',
      kind: 'success',
      description: 'The caller used up the allowed no-inputs or no-matches (or attempts).',
      data: {
        reason: ['string', 'noInput | noMatch | maxAttempts'],
        attempts: ['int', 'prompt plays'],
        noInputCount: ['int', 'no-inputs'],
        noMatchCount: ['int', 'no-matches'],
      },
    },
    FAILED,
  ],
  label: (p) => `menu ${Object.keys(p.choices).join('/')}`,
  routes: (p, path) =>
    Object.entries(p.choices).map(([digit, transitions]) => ({
      outcome: 'choice',
      label: digit,
      matches: (result: Readonly<Record<string, unknown>>) => result.digit === digit,
      transitions,
      path: [...path, 'choices', digit],
    })),
  compile: (p, build) => {
    const rules = menuSettings(p);
    const counts = ({ context }: ActionArgs) => ({
      attempts: Number(context.step.attempts ?? 0),
      noInputCount: Number(context.step.noInput ?? 0),
      noMatchCount: Number(context.step.noMatch ?? 0),
    });
    const exhaustedBy = (context: ActionArgs['context']): string | undefined => {
      if (Number(context.step.noInput) >= rules.noInputMax) return 'noInput';
      if (Number(context.step.noMatch) >= rules.noMatchMax) return 'noMatch';
      if (rules.maxAttempts !== undefined && Number(context.step.attempts) >= rules.maxAttempts)
        return 'maxAttempts';
      return undefined;
    };
    const takeDigit = setStep(({ event }) => ({ digit: String(event.digit ?? '') }));
    /** A key is a choice or a no-match, decided on the key event itself (one microstep per key). */
    const isChoice = ({ event }: ActionArgs) => Object.hasOwn(p.choices, String(event.digit ?? ''));
    const onKey: TransitionSpec[] = [
      withGuard(
        withActions(
          build.exit('choice', (args) => ({ digit: args.context.step.digit, ...counts(args) })),
          [takeDigit],
        ),
        isChoice,
      ),
      { actions: [takeDigit], target: 'noMatch' },
    ];
    const attemptMedia = (args: ActionArgs) => {
      const reason = args.context.step.lastFailure;
      const announcement =
        reason === 'noInput'
          ? retryAnnouncement(p.noInput, Number(args.context.step.noInput))
          : reason === 'noMatch'
            ? retryAnnouncement(p.noMatch, Number(args.context.step.noMatch))
            : undefined;
      const main = resolveMedia(p, args, build.flow);
      if (!announcement) return main;
      const before = resolveMedia(
        { ...announcement, ...(p.language ? { language: p.language } : {}) },
        args,
        build.flow,
      );
      return { media: [...before.media, ...main.media], lang: main.lang };
    };
    const failure = (kind: 'noInput' | 'noMatch') => ({
      entry: [setStep(({ context }) => ({ [kind]: Number(context.step[kind] ?? 0) + 1, lastFailure: kind }))],
      always: [
        {
          guard: ({ context }: ActionArgs) => exhaustedBy(context) !== undefined,
          ...build.exit('exhausted', (args) => ({ reason: exhaustedBy(args.context), ...counts(args) })),
        },
        { target: 'attempt' },
      ],
    });
    return {
      initial: 'attempt',
      entry: [
        setStep(() => ({ attempts: 0, noInput: 0, noMatch: 0, lastFailure: undefined, digit: undefined })),
      ],
      states: {
        attempt: (() => {
          const play = playFragment({
            scratch: 'playback',
            media: attemptMedia,
            onFinished: { target: 'waiting' },
            onFailed: build.exit('failed', failureData),
            onDigit: onKey,
          });
          const countAttempt = setStep(({ context }) => ({
            attempts: Number(context.step.attempts ?? 0) + 1,
            digit: undefined,
          }));
          return { ...play, entry: [countAttempt, ...(play.entry ?? [])] };
        })(),
        waiting: {
          on: { ChannelDtmfReceived: onKey.map((t) => withGuard(t, isOwnChannel)) },
          after: { [rules.timeoutMs]: { target: 'noInput' } },
        },
        noInput: failure('noInput'),
        noMatch: failure('noMatch'),
      },
    };
  },
});
