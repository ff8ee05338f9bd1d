import type { OwnedResource } from './OwnedResources.ts';
import type { SessionHost } from './SessionHost.ts';

/** What {@link releaseOnServer} needs to know about the call that ended. */
export interface EndedCall {
  readonly channelId: string;
  /** Everything the call owned when it ended. */
  readonly owned: readonly OwnedResource[];
  /** Hang up the call's own channel too (drain deadline, failures, stop). */
  readonly hangUpMain: boolean;
  /** The call's channel was already on its way out (left, hung up, continued). */
  readonly leaving: boolean;
  /** Channels of the call found gone: nothing to hang up. */
  isGone(channelId: string): boolean;
}

/**
 * Cleans up on the server what an ended call owned, as each resource's cleanup says (see
 * `ResourceCleanup`), through the host's retried cleanup requests:
 * - live recordings first, before their bridge is destroyed: a stop keeps what was recorded.
 *   Bridge recordings would otherwise run on after the call (a bridge the call does not own
 *   outlives it). A channel recording ends with its channel (its RecordingFinished comes before
 *   the StasisEnd, so it is no longer owned); one still owned gets a stop, 404 = done;
 * - channels it created are hung up; its own only with `hangUpMain` and if not already leaving;
 * - bridges are destroyed, a shared room only once empty (see {@link closeRoomIfEmpty}).
 */
export function releaseOnServer(
  call: EndedCall,
  host: Pick<SessionHost, 'client' | 'cleanup' | 'isBeingRemoved'>,
  debug: (message: string, details: object) => void,
): void {
  const { client } = host;
  for (const { kind, id, cleanup, started } of call.owned) {
    if (kind === 'recording' && cleanup && started)
      host.cleanup(`stop recording ${id}`, () => client.recording(id).stop());
  }
  for (const { kind, id, cleanup } of call.owned) {
    const main = kind === 'channel' && id === call.channelId;
    const gone = kind === 'channel' && call.isGone(id);
    if (main ? !call.hangUpMain || call.leaving || gone : !cleanup || gone) continue;
    if (kind === 'channel')
      host.cleanup(`hang up ${id}`, () => client.channel(id).hangup(), { kind: 'channel', id });
    else if (kind === 'bridge' && cleanup === 'when-empty') closeRoomIfEmpty(id, host, debug);
    else if (kind === 'bridge')
      host.cleanup(`destroy bridge ${id}`, () => client.bridge(id).destroy(), { kind: 'bridge', id });
  }
}

/**
 * A bridge a call shared with others (a conference room) outlives the call unless nobody is left
 * in it. Each participant checks as it ends, after its own channel left, so the last one to leave
 * finds the room empty. Every channel the server lists in the room counts, the calls of other
 * processes (cluster mode) included, except those this process is hanging up (at stop every call
 * ends at once, and each would otherwise see the others still in the room).
 */
function closeRoomIfEmpty(
  bridgeId: string,
  host: Pick<SessionHost, 'client' | 'cleanup' | 'isBeingRemoved'>,
  debug: (message: string, details: object) => void,
): void {
  const { client } = host;
  host.cleanup(
    `close room ${bridgeId} if empty`,
    async () => {
      const bridge = await client.bridge(bridgeId).get();
      const present = bridge.channels.filter((id) => !host.isBeingRemoved('channel', id));
      if (present.length > 0) return;
      debug('last call left the room; destroying it', { bridge: bridgeId });
      await client.bridge(bridgeId).destroy();
    },
    { kind: 'bridge', id: bridgeId },
  );
}
