import { SimError } from '../SimError.ts';
import type { SimPlayback } from '../world/SimPlayback.ts';
import { type HandlerContext, type HandlerTable, NO_CONTENT, ok, str } from './HandlerContext.ts';

function findPlayback({ world, params }: HandlerContext): SimPlayback {
  const playback = world.playbacks.get(str(params, 'playbackId'));
  if (!playback) throw new SimError(404, 'Playback not found');
  return playback;
}

/** Handlers of `/playbacks`: get, stop, control. */
export const playbacksHandlers: HandlerTable = {
  get: (ctx) => ok(findPlayback(ctx).toJson()),
  stop: (ctx) => {
    findPlayback(ctx).stop();
    return NO_CONTENT;
  },
  control: (ctx) => {
    findPlayback(ctx).control(str(ctx.params, 'operation'));
    return NO_CONTENT;
  },
};
