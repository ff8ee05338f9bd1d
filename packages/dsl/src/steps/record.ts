import { type RecordingEnd, recordingEnd } from '@ringflow/runtime/engine';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { resolveOptional, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData, setStep } from '../compile/effects.ts';
import { s } from '../schema/s.ts';
import { readField } from './readField.ts';
import { recordingRequest } from './recordingRequest.ts';
import { recordingOf } from './recordingEvent.ts';
import { FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

const params = stepParams(
  {
    name: s.optional(
      s.value(
        s.string({
          description:
            'Name of the stored recording (may include a folder: voicemail/42). Default: a fresh id.',
        }),
      ),
    ),
    format: s.optional(
      s.string({ description: 'File format.', default: 'wav', examples: ['wav', 'gsm', 'ulaw'] }),
    ),
    maxDuration: s.optional(s.duration({ description: 'Stop after this long (0: no limit).', default: 0 })),
    maxSilence: s.optional(
      s.duration({ description: 'Stop after this much silence (0: no limit).', default: 0 }),
    ),
    beep: s.optional(s.boolean({ description: 'Play a beep before recording starts.', default: true })),
    terminateOn: s.optional(
      s.enum(['none', 'any', '*', '#'], { description: 'Key that stops the recording.', default: '#' }),
    ),
    ifExists: s.optional(
      s.enum(['fail', 'overwrite', 'append'], {
        description: 'What to do when a recording of that name exists.',
        default: 'overwrite',
      }),
    ),
  },
  'Records the caller (voicemail). Ends on the terminate key, silence, duration limit or hangup.',
);

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/**
 * record: records the caller. Outcomes: recorded (`event.name`, `event.duration`,
 * `event.talkingDuration`, `event.silenceDuration`, in seconds), failed.
 */
export const recordStep = defineStep({
  name: 'record',
  description: 'Records the caller (voicemail).',
  params,
  bare: true,
  outcomes: [
    {
      name: 'recorded',
      kind: 'success',
      description: 'The recording finished and was stored.',
      data: {
        name: ['string', 'stored recording name'],
        duration: ['int', 'total seconds'],
        talkingDuration: ['int', 'seconds of talk (with maxSilence)'],
        silenceDuration: ['int', 'seconds of silence (with maxSilence)'],
      },
    },
    FAILED,
  ],
  label: () => 'record',
  compile: (p, build) => {
    // How a recording ends is the runtime's rule (shared with its `record` call actor).
    const ended =
      (end: RecordingEnd) =>
      ({ context, event }: ActionArgs) =>
        recordingEnd(event, String(context.step.recording)) === end;
    const recorded = ({ event }: ActionArgs) => {
      const r = recordingOf(event);
      return {
        name: r?.name,
        // The real server names it total_duration (res/stasis_recording.c); the description, duration.
        duration: seconds(readField(r, 'total_duration')) ?? seconds(r?.duration) ?? 0,
        ...(seconds(r?.talking_duration) !== undefined ? { talkingDuration: r?.talking_duration } : {}),
        ...(seconds(r?.silence_duration) !== undefined ? { silenceDuration: r?.silence_duration } : {}),
      };
    };
    return {
      entry: [
        setStep((args) => ({
          recording:
            resolveOptional(p.name, scopeOf(args.context, args.event)) ??
            args.context.host.newId('recording'),
        })),
      ],
      effect: effect(
        ({ context }) => {
          const name = String(context.step.recording);
          // A name the flow gives is not from `newId`: owned here, so that its end is checked
          // with the server after a gap in the events or by the watchdog, as a picked one's is.
          context.host.watch?.('recording', name);
          return context.host.ari.channels.record({
            channelId: context.call.channelId,
            name,
            ...recordingRequest(p, { beep: true, terminateOn: '#', ifExists: 'overwrite' }),
          });
        },
        // Its events say how it ends (the restored session checks the recording): asking again
        // would start it anew over what was recorded.
        { onError: build.exit('failed', failureData), resume: 'await' },
      ),
      on: {
        RecordingFinished: { guard: ended('finished'), ...build.exit('recorded', recorded) },
        RecordingFailed: {
          guard: ended('failed'),
          ...build.exit('failed', ({ event }) => ({
            message: `recording failed: ${recordingOf(event)?.cause ?? 'unknown cause'}`,
          })),
        },
      },
    };
  },
});
