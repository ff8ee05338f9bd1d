import type { Simulator } from '@ringflow/simulator';
import type { CallRecorder } from './CallRecorder.ts';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import type { ChannelSounds, PlaybackJson } from './ChannelSounds.ts';

/**
 * The simulator of `ringflow dev` as the application reaches it, whose every REST request is told
 * to the feed with its status, as a line of the call it is about (a far end's, of the call that
 * dialled it; a channel's or bridge's the call's flow made, of that call), and whose ringing and
 * music on hold are told to `sounds`.
 *
 * @example
 * const wire = await startWireServer(traceRequests(sim, feed, recorder, sounds), { ... });
 */
export function traceRequests(
  sim: Simulator,
  feed: ConsoleFeed,
  recorder: CallRecorder,
  sounds: ChannelSounds,
): Simulator {
  const handle = sim.handle.bind(sim);
  return new Proxy(sim, {
    get(target, key) {
      if (key === 'handle')
        return async (request: Parameters<Simulator['handle']>[0]) => {
          const response = await handle(request);
          const call = recorder.callOf(resourceOf(request));
          feed.line(call, 'request', `${request.method} ${request.path} → ${response.status}`);
          // The ringing and the music on hold a flow asks for are heard on the page.
          sounds.request(request.method, request.path, request.query, response.status);
          return response;
        };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The channel or bridge a request is about: in its path, or (a channel made with an id:
 * `POST /channels/externalMedia?channelId=`, `POST /channels/create`) in its parameters.
 */
function resourceOf(request: Parameters<Simulator['handle']>[0]): string {
  const [, kind, id] = /^\/(channels|bridges)(?:\/([^/?]+))?/.exec(request.path) ?? [];
  const body = (request.body ?? {}) as Record<string, unknown>;
  const given = kind === 'bridges' ? request.query.bridgeId : (request.query.channelId ?? body.channelId);
  if (id === undefined || (kind === 'channels' && (id === 'externalMedia' || id === 'create')))
    return typeof given === 'string' ? given : '';
  return id;
}

/**
 * Tells the feed what the simulator's channels do: each event as a line of its call (a far end's
 * of the call that dialled it, a channel's or bridge's the flow made of its call); playbacks and
 * bridges' members to `sounds` (what each channel hears); a call the page placed at an extension that ended before any flow
 * took it (`inDialplan`, not `followed`); the far ends ringing, answered and gone, under their call.
 *
 * @example
 * feedSimulatorEvents(sim.driver, feed, recorder, { inDialplan, followed: (id) => watched.has(id) }, sounds);
 */
export function feedSimulatorEvents(
  driver: Simulator['driver'],
  feed: ConsoleFeed,
  recorder: CallRecorder,
  calls: { readonly inDialplan: Set<string>; readonly followed: (id: string) => boolean },
  sounds: ChannelSounds,
): void {
  driver.onEvent((event) => {
    const e = event as {
      type: string;
      channel?: { id: string; name?: string; state?: string };
      bridge?: { id: string };
      digit?: string;
      cause_txt?: string;
      playback?: PlaybackJson;
    };
    if (e.playback) sounds.playback(e.type, e.playback);
    const id = e.channel?.id;
    sounds.event(e.type, id, e.bridge?.id);
    const about = id ?? e.bridge?.id;
    feed.line(about ? recorder.callOf(about) : '', 'event', `${e.type}${e.digit ? ` ${e.digit}` : ''}`);
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
