import type { Playback as PlaybackJson, LiveRecording as LiveRecordingJson } from '@ringflow/client';
import type { IfExists } from '../facilities/index.ts';
import { SimError } from '../SimError.ts';
import { LiveRecording, type RecordingTarget } from './LiveRecording.ts';
import { enqueueMedia } from './mediaQueue.ts';
import { type PlaybackTarget, SimPlayback } from './SimPlayback.ts';
import type { World } from './World.ts';

let generatedIds = 0;

/** A playback id the server picks when the caller gave none (unique in this process). */
function newPlaybackId(world: World): string {
  for (;;) {
    const id = `${world.clock.now().toString(36)}-${(generatedIds++).toString(36)}`;
    if (!world.playbacks.has(id)) return id;
  }
}

/**
 * Queues a playback on a channel or bridge and returns it as the reply shows it (`queued`):
 * it starts at once when nothing else plays there, else after what is queued before it.
 */
export function startPlayback(
  world: World,
  target: PlaybackTarget,
  request: { media: readonly string[]; playbackId?: string; language: string; skipMs: number },
): PlaybackJson {
  const playback = new SimPlayback(
    world,
    request.playbackId ?? newPlaybackId(world),
    target,
    request.media,
    request.language,
    request.skipMs,
  );
  world.playbacks.set(playback.id, playback);
  const reply = playback.toJson();
  enqueueMedia(target, playback);
  return reply;
}

export interface RecordRequest {
  readonly name: string;
  readonly format: string;
  readonly maxDurationSeconds: number;
  readonly maxSilenceSeconds: number;
  readonly ifExists: string;
  readonly beep: boolean;
  readonly terminateOn: string;
}

/**
 * Starts a live recording of a channel or bridge, with the real server's refusals: a name that
 * would escape the recordings directory (500), an unknown format (422), an existing recording
 * with `ifExists=fail` (409).
 */
export function startRecording(
  world: World,
  target: RecordingTarget & { recordingName: string | undefined },
  request: RecordRequest,
): LiveRecordingJson {
  const ifExists = request.ifExists as IfExists;
  world.services.recordings.checkNewRecording(request.name, request.format, ifExists);
  // A recording of the same name still running is taken whatever ifExists says.
  if (world.recordings.has(request.name)) {
    throw new SimError(409, `Recording '${request.name}' already exists and can not be overwritten`);
  }
  const recording = new LiveRecording(world, target, {
    name: request.name,
    format: request.format,
    maxDurationMs: Math.max(0, request.maxDurationSeconds) * 1000,
    maxSilenceMs: Math.max(0, request.maxSilenceSeconds) * 1000,
    beepMs: request.beep ? (world.services.sounds.durationOf('beep') ?? 250) : 0,
    append: request.ifExists === 'append',
    terminateOn: request.terminateOn,
  });
  world.recordings.set(recording.name, recording);
  target.recordingName = recording.name;
  const reply = recording.toJson();
  enqueueMedia(target, recording);
  return reply;
}
