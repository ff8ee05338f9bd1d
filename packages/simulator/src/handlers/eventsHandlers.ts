import { SimError } from '../SimError.ts';
import { claimBroadcast } from '../world/broadcastOffers.ts';
import { parseEventSource } from '../world/eventSource.ts';
import { containers, type HandlerTable, list, NO_CONTENT, str } from './HandlerContext.ts';

/** Handlers of `/events`: user events and the claim of a broadcast call. */
export const eventsHandlers: HandlerTable = {
  userEvent: ({ world, params }) => {
    const application = str(params, 'application');
    if (!world.stasisApp(application)) throw new SimError(404, 'Application not found');
    const snapshots: Record<string, unknown> = {};
    for (const text of list(params, 'source')) {
      // Device states are valid subscriptions but not user event sources.
      const source = parseEventSource(text, ['channel', 'bridge', 'endpoint']);
      if ('all' in source) throw new SimError(422, 'Event source was not found');
      if (source.kind === 'channel') {
        const ch = world.channel(source.id);
        if (!ch) throw new SimError(422, 'Event source was not found');
        snapshots.channel = ch.snapshot();
      } else if (source.kind === 'bridge') {
        const bridge = world.bridges.get(source.id);
        if (!bridge) throw new SimError(422, 'Event source was not found');
        snapshots.bridge = bridge.toJson();
      } else {
        const slash = source.id.indexOf('/');
        const ep =
          slash < 0 ? undefined : world.endpoints.get(source.id.slice(0, slash), source.id.slice(slash + 1));
        if (!ep) throw new SimError(422, 'Event source was not found');
        snapshots.endpoint = ep.toJson();
      }
    }
    const eventname = str(params, 'eventName');
    const userevent = { ...containers(params, 'variables'), eventname };
    world.publish('ChannelUserevent', { eventname, userevent, ...snapshots }, { app: application });
    return NO_CONTENT;
  },

  // StasisBroadcast(): the first claim wins; later ones 409 while the winner has the call.
  claimChannel: ({ world, params }) => {
    const outcome = claimBroadcast(world, str(params, 'channelId'), str(params, 'application'));
    if (outcome === 'not-found') throw new SimError(404, 'Channel not found or not in broadcast state');
    if (outcome === 'taken')
      throw new SimError(409, 'Channel has already been claimed by another application');
    return NO_CONTENT;
  },
};
