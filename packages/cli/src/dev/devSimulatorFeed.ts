import type { Simulator } from '@ringflow/simulator';
import type { CallRecorder } from './CallRecorder.ts';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import { filesOfMedia } from './SoundFolder.ts';

/** A playback as its events carry it. */
interface PlaybackJson {
  readonly id: string;
  readonly media_uri: string;
  readonly target_uri: string;
  readonly language?: string;
}

/**
 * The simulator of `ringflow dev` as the application reaches it, whose every REST request is told
 * to the feed with its status, as a line of the call it is about (a far end's, of the call that
 * dialled it).
 *
 * @example
 * const wire = await startWireServer(traceRequests(sim, feed, recorder), { ... });
 */
export function traceRequests(sim: Simulator, feed: ConsoleFeed, recorder: CallRecorder): Simulator {
  const handle = sim.handle.bind(sim);
  return new Proxy(sim, {
    get(target, key) {
      if (key === 'handle')
        return async (request: Parameters<Simulator['handle']>[0]) => {
          const response = await handle(request);
          const channel = /\/channels\/([^/?]+)/.exec(request.path)?.[1] ?? '';
          const call = recorder.callOfFarEnd(channel) ?? channel;
          feed.line(call, 'request', `${request.method} ${request.path} → ${response.status}`);
          // The ringing a flow asks for is heard on the page (a tone it makes).
          if (/^\/channels\/[^/]+\/ring$/.test(request.path) && response.status < 300)
            feed.send({
              type: 'sound',
              call,
              channel,
              id: `ring:${channel}`,
              media: 'tone:ring',
              files: [],
              language: 'en',
              playing: request.method === 'POST',
            });
          return response;
        };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Tells the feed what the simulator's channels do: each event as a line of its call (a far end's
 * of the call that dialled it); a call the page placed at an extension that ended before any flow
 * took it (`inDialplan`, not `followed`); the far ends ringing, answered and gone, under their call.
 *
 * @example
 * feedSimulatorEvents(sim.driver, feed, recorder, { inDialplan, followed: (id) => watched.has(id) });
 */
export function feedSimulatorEvents(
  driver: Simulator['driver'],
  feed: ConsoleFeed,
  recorder: CallRecorder,
  calls: { readonly inDialplan: Set<string>; readonly followed: (id: string) => boolean },
): void {
  driver.onEvent((event) => {
    const e = event as {
      type: string;
      channel?: { id: string; name?: string; state?: string };
      digit?: string;
      cause_txt?: string;
      playback?: PlaybackJson;
    };
    if (e.playback) feedSound(feed, recorder, e.type, e.playback);
    const id = e.channel?.id;
    feed.line(
      id ? (recorder.callOfFarEnd(id) ?? id) : '',
      'event',
      `${e.type}${e.digit ? ` ${e.digit}` : ''}`,
    );
    if (id && e.type === 'ChannelDestroyed' && calls.inDialplan.delete(id) && !calls.followed(id)) {
      feed.line(id, 'end', `■ call ended in the dialplan${e.cause_txt ? `: ${e.cause_txt}` : ''}`);
      feed.send({ type: 'ended', call: id, outcome: 'ended in the dialplan', at: Date.now() });
    }
    // Channels a call's flow dialled are far ends: the page answers, rejects or hangs them up.
    const call = id === undefined ? undefined : recorder.callOfFarEnd(id);
    if (!id || call === undefined) return;
    const name = e.channel?.name ?? id;
    if (e.type === 'ChannelCreated') feed.send({ type: 'farEnd', id, call, ringing: true, name });
    if (e.type === 'ChannelStateChange' && e.channel?.state === 'Up')
      feed.send({ type: 'farEnd', id, call, ringing: false, answered: true, name });
    if (e.type === 'ChannelDestroyed') feed.send({ type: 'farEnd', id, call, ringing: false, gone: true });
  });
}

/** A playback's media started or stopped on a channel: the sound message of its call. */
function feedSound(feed: ConsoleFeed, recorder: CallRecorder, type: string, playback: PlaybackJson): void {
  const playing = type === 'PlaybackStarted';
  if (!playing && type !== 'PlaybackContinuing' && type !== 'PlaybackFinished') return;
  const channel = /^channel:(.+)$/.exec(playback.target_uri)?.[1];
  if (channel === undefined) return;
  feed.send({
    type: 'sound',
    call: recorder.callOfFarEnd(channel) ?? channel,
    channel,
    id: playback.id,
    media: playback.media_uri,
    files: filesOfMedia(playback.media_uri),
    language: playback.language ?? 'en',
    playing,
  });
}
