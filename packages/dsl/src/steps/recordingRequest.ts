import { type Duration, parseDuration } from '../schema/s.ts';

type TerminateOn = 'none' | 'any' | '*' | '#';
type IfExists = 'fail' | 'overwrite' | 'append';

/** The parameters the two record steps share (`record` for the caller, `bridgeRecord`). */
export interface RecordingParams {
  readonly format?: string;
  readonly maxDuration?: Duration;
  readonly maxSilence?: Duration;
  readonly beep?: boolean;
  readonly terminateOn?: TerminateOn;
  readonly ifExists?: IfExists;
}

/**
 * A record request's options from a step's parameters, with that step's defaults where the
 * flow gives none (durations in whole seconds, as the interface takes them; 0: no limit).
 *
 * @example
 * ari.channels.record({ channelId, name, ...recordingRequest(p, { beep: true, terminateOn: '#', ifExists: 'overwrite' }) });
 */
export function recordingRequest(
  p: RecordingParams,
  defaults: { readonly beep: boolean; readonly terminateOn: TerminateOn; readonly ifExists: IfExists },
) {
  const seconds = (value: Duration | undefined) => Math.round((parseDuration(value ?? 0) ?? 0) / 1000);
  return {
    format: p.format ?? 'wav',
    maxDurationSeconds: seconds(p.maxDuration),
    maxSilenceSeconds: seconds(p.maxSilence),
    beep: p.beep ?? defaults.beep,
    terminateOn: p.terminateOn ?? defaults.terminateOn,
    ifExists: p.ifExists ?? defaults.ifExists,
  };
}
