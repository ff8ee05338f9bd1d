import { SimError } from '../SimError.ts';
import type { LiveRecording } from '../world/LiveRecording.ts';
import { type HandlerContext, type HandlerTable, NO_CONTENT, ok, optStr, str } from './HandlerContext.ts';

function findLive({ world, params }: HandlerContext): LiveRecording {
  const recording = world.recordings.get(str(params, 'recordingName'));
  if (!recording) throw new SimError(404, 'Recording not found');
  return recording;
}

/** Handlers of `/recordings`: live recordings (the world) and stored ones (the store). */
export const recordingsHandlers: HandlerTable = {
  listStored: ({ facilities }) => ok(facilities.recordings.list()),
  getStored: ({ facilities, params }) => ok(facilities.recordings.get(str(params, 'recordingName'))),
  deleteStored: ({ facilities, params }) => {
    facilities.recordings.delete(str(params, 'recordingName'));
    return NO_CONTENT;
  },
  getStoredFile: ({ facilities, params }) => {
    const file = facilities.recordings.getFile(str(params, 'recordingName'));
    return { status: 200, binary: { contentType: file.contentType, data: file.data } };
  },
  copyStored: ({ facilities, params }) =>
    ok(facilities.recordings.copy(str(params, 'recordingName'), optStr(params, 'destinationRecordingName'))),

  getLive: (ctx) => ok(findLive(ctx).toJson()),
  cancel: (ctx) => {
    findLive(ctx).finish('canceled');
    return NO_CONTENT;
  },
  stop: (ctx) => {
    findLive(ctx).finish('done');
    return NO_CONTENT;
  },
  pause: (ctx) => {
    findLive(ctx).pause();
    return NO_CONTENT;
  },
  unpause: (ctx) => {
    findLive(ctx).unpause();
    return NO_CONTENT;
  },
  mute: (ctx) => {
    findLive(ctx).muted = true;
    return NO_CONTENT;
  },
  unmute: (ctx) => {
    findLive(ctx).muted = false;
    return NO_CONTENT;
  },
};
