import { failureData } from '../compile/effects.ts';
import { playFragment } from '../compile/playFragment.ts';
import { resolveMedia } from '../compile/resolveMedia.ts';
import { playableFields } from '../model/media.ts';
import { s } from '../schema/s.ts';
import { FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

const params = stepParams(
  {
    ...playableFields,
    bargeIn: s.optional(
      s.boolean({
        description: 'Stop playing when the caller presses a key (outcome `interrupted`).',
        default: false,
      }),
    ),
  },
  'Plays prompts or media to the caller and waits until they finish.',
);

/**
 * play: plays prompts (from the catalogue, in the call language) and/or media URIs, then waits.
 * Outcomes: done (finished), interrupted (barge-in, `event.digit`), failed.
 */
export const playStep = defineStep({
  name: 'play',
  description: 'Plays prompts or media to the caller and waits until they finish.',
  params,
  bare: false,
  sounds: [{ at: [], required: 'The play step' }],
  outcomes: [
    { name: 'done', kind: 'success', description: 'Everything was played.' },
    {
      name: 'interrupted',
      kind: 'success',
      description: 'The caller pressed a key (bargeIn: true); the playback was stopped.',
      data: { digit: ['string', 'the key pressed'] },
    },
    FAILED,
  ],
  label: (p) =>
    `play ${p.prompt ?? (typeof p.media === 'object' && !Array.isArray(p.media) ? 'expr' : String(p.media))}`,
  compile: (p, build) =>
    playFragment({
      scratch: 'playback',
      media: (args) => resolveMedia(p, args, build.flow),
      onFinished: build.exit('done'),
      onFailed: build.exit('failed', failureData),
      ...(p.bargeIn
        ? {
            onDigit: build.exit('interrupted', ({ event }) => ({ digit: event.digit })),
          }
        : {}),
    }),
});
