/**
 * The rules of recording a call, in one place for the runtime's `record` call actor and the flow
 * language's `record` step: how a recording's end is read from its events.
 */

/** How a recording ended: stored (`RecordingFinished`), or not (`RecordingFailed`). */
export type RecordingEnd = 'finished' | 'failed';

/**
 * How the recording `name` ended, when `event` is its `RecordingFinished` or `RecordingFailed`;
 * undefined for any other event. Recordings are known by name (the id the application picked).
 */
export function recordingEnd(
  event: { readonly type: string; readonly recording?: { readonly name?: string } },
  name: string,
): RecordingEnd | undefined {
  if (event.recording?.name !== name) return undefined;
  if (event.type === 'RecordingFinished') return 'finished';
  if (event.type === 'RecordingFailed') return 'failed';
  return undefined;
}
