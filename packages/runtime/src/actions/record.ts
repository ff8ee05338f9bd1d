import type {
  ChannelsRecordParams,
  LiveRecording,
  RecordingFailed,
  RecordingFinished,
} from '@ringflow/client';
import { recordingEnd } from '../behaviours/recording.ts';
import type { CallHandle } from '../call/CallHandle.ts';
import { nextEvent } from '../call/nextEvent.ts';
import { withScope } from '../call/withScope.ts';
import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link record}: the recording parameters of the interface, with defaults. */
export interface RecordInput
  extends WithCall,
    Partial<Omit<ChannelsRecordParams, 'channelId' | 'name' | 'format'>> {
  /** Name of the stored recording; default: a fresh id. */
  readonly name?: string;
  /** Default `wav`. */
  readonly format?: string;
}

/** Output of {@link record}. */
export interface RecordOutput {
  readonly name: string;
  /** `finished`: the recording is stored; `failed`: the server could not make or keep it. */
  readonly outcome: 'finished' | 'failed';
  /** The recording as the final event described it (durations, cause). */
  readonly recording: LiveRecording;
}

/**
 * Records the call and finishes when the recording does (silence limit, duration limit, the
 * terminating digit, or a stop). The name is chosen and owned before the request.
 *
 * @example
 * voicemail: {
 *   invoke: {
 *     src: 'record',
 *     input: ({ context }) => ({ call: context.call, maxDurationSeconds: 60, maxSilenceSeconds: 3, terminateOn: '#', beep: true }),
 *     onDone: 'thanks',
 *   },
 * }
 */
export const record = callActor<RecordInput, RecordOutput, { readonly name: string }>(
  (input: RecordInput, signal, step): Promise<RecordOutput> =>
    withScope(signal, async (scope) => {
      const { call, name: given, format, ...options } = input;
      const name = given ?? call.pickId('recording');
      call.own('recording', name, { cleanup: false });
      step.started({ name });
      const ended = recordingEnded(call, name, scope);
      try {
        await call.channel.record({ name, format: format ?? 'wav', ...options }, { signal: scope });
      } catch (error) {
        call.disown('recording', name);
        throw error;
      }
      return outputOf(name, await ended);
    }),
  {
    // Restored while recording: follow that recording (its events, or the restored session's
    // check of it) rather than start another.
    resume: (input, note, signal) =>
      withScope(signal, async (scope) => {
        const { name } = note;
        return outputOf(name, await recordingEnded(input.call, name, scope));
      }),
  },
);

function recordingEnded(call: CallHandle, name: string, signal: AbortSignal) {
  return nextEvent<RecordingFinished | RecordingFailed>(
    call.events$,
    (e) => recordingEnd(e, name) !== undefined,
    signal,
  );
}

function outputOf(name: string, event: RecordingFinished | RecordingFailed): RecordOutput {
  return {
    name,
    outcome: recordingEnd(event, name) ?? 'failed',
    recording: event.recording,
  };
}
