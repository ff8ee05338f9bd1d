import { isEventType, type LiveRecording } from '@ringflow/client/interface';
import type { AnyFlowEvent } from '../compile/FlowContext.ts';

/**
 * The live recording a recording event is about (RecordingStarted, RecordingFinished,
 * RecordingFailed); `undefined` for any other event.
 *
 * @example
 * recordingOf(event)?.name === context.step.recording
 */
export function recordingOf(event: AnyFlowEvent): LiveRecording | undefined {
  return isEventType(event, 'RecordingStarted', 'RecordingFinished', 'RecordingFailed')
    ? event.recording
    : undefined;
}
