import { soundMayHaveChanged } from '../media/soundChangeHook.ts';
import type { RecordingTarget } from './LiveRecording.ts';
import type { MediaTarget } from './mediaQueue.ts';
import { SimBridge } from './SimBridge.ts';
import { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/** Where sound changed: the channel or bridge whose media, membership or talking changed. */
export type SoundOrigin = SimChannel | SimBridge | MediaTarget | undefined;

/**
 * Where sound would flow. No audio is simulated, but its effects are: talk detection and the
 * talking/silence of recordings follow the sound that would reach them.
 *
 * - A channel *talks* (sound comes from its side: what a recording of it captures, what its talk
 *   detection hears) when its caller talks (the driver), or, for one half of a Local pair, when
 *   the other half *hears* sound: what is played to one half comes out of the other.
 * - A channel *hears* sound when media plays to it, or when it is in a mixing bridge where media
 *   plays to the bridge or another member talks. Muting a direction stops that direction
 *   (`in`: what it says, `out`: what it hears); a holding bridge's members do not hear each other.
 * - A bridge recording hears every member that talks and the media played to the bridge.
 */
export function isTalking(world: World, ch: SimChannel, seen: Set<SimChannel> = new Set()): boolean {
  if (ch.talkingSince !== undefined) return true;
  if (seen.has(ch)) return false;
  seen.add(ch);
  const twin = ch.peer;
  return twin !== undefined && !twin.destroyed && hearsSound(world, twin, seen);
}

/** True when sound reaches the channel (see {@link isTalking}). */
export function hearsSound(world: World, ch: SimChannel, seen: Set<SimChannel> = new Set()): boolean {
  if (ch.muted?.has('out')) return false;
  if (isPlaying(ch)) return true;
  const bridge = ch.bridgeId === undefined ? undefined : world.bridges.get(ch.bridgeId);
  if (!bridge) return false;
  if (isPlaying(bridge)) return true;
  if (bridge.holding) return false;
  return bridge.channelIds.some((id) => id !== ch.id && talksIntoBridge(world, id, seen));
}

/** True when a bridge recording would capture sound: a member talks, or media plays to the bridge. */
export function bridgeHasSound(world: World, bridge: SimBridge): boolean {
  if (isPlaying(bridge)) return true;
  const seen = new Set<SimChannel>();
  return bridge.channelIds.some((id) => talksIntoBridge(world, id, seen));
}

/** True when what a recording of `target` captures is talking. */
export function recordingHearsTalking(world: World, target: RecordingTarget): boolean {
  const source = target.soundSource;
  return source.kind === 'channel' ? isTalking(world, source.channel) : bridgeHasSound(world, source.bridge);
}

/**
 * Re-evaluates, after a change of where sound flows (media started or ended, a channel joined or
 * left a bridge, a caller started or stopped talking, a channel went away), the channels whose
 * talk detection is on (ChannelTalkingStarted / ChannelTalkingFinished with the talk's duration)
 * and the live recordings (talking and silence, the silence limit). Only what sound can reach
 * from the origins is looked at: the channels and bridges joined to them by Local pairs and
 * bridge membership (a call or two), so the cost does not grow with the number of calls.
 */
export function reviewAudio(world: World, ...origins: SoundOrigin[]): void {
  const { channels, bridges } = connectedTo(world, origins);
  for (const ch of channels) {
    if (ch.talkDetect && !ch.destroyed) reviewTalkDetection(world, ch);
    const recording = ch.recordingName === undefined ? undefined : world.recordings.get(ch.recordingName);
    recording?.talkingChanged(isTalking(world, ch));
  }
  for (const bridge of bridges) {
    const recording =
      bridge.recordingName === undefined ? undefined : world.recordings.get(bridge.recordingName);
    recording?.talkingChanged(bridgeHasSound(world, bridge));
  }
  // External media channels send frames while sound reaches them.
  soundMayHaveChanged(world, channels);
}

function reviewTalkDetection(world: World, ch: SimChannel): void {
  const talking = isTalking(world, ch);
  if (talking && ch.talkDetectedSince === undefined) {
    ch.talkDetectedSince = world.clock.now();
    world.publishChannel('ChannelTalkingStarted', ch);
  } else if (!talking && ch.talkDetectedSince !== undefined) {
    const duration = world.clock.now() - ch.talkDetectedSince;
    ch.talkDetectedSince = undefined;
    world.publishChannel('ChannelTalkingFinished', ch, { duration });
  }
}

/** The channels and bridges joined to the origins by Local pairs and bridge membership. */
function connectedTo(world: World, origins: readonly SoundOrigin[]) {
  const channels = new Set<SimChannel>();
  const bridges = new Set<SimBridge>();
  const pending: unknown[] = [...origins];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node instanceof SimChannel) {
      if (channels.has(node)) continue;
      channels.add(node);
      if (node.peer) pending.push(node.peer);
      if (node.bridgeId !== undefined) pending.push(world.bridges.get(node.bridgeId));
    } else if (node instanceof SimBridge) {
      if (bridges.has(node)) continue;
      bridges.add(node);
      for (const id of node.channelIds) pending.push(world.channel(id));
    }
  }
  return { channels, bridges };
}

/** True when the media running on the target is a playback that is playing (not paused). */
function isPlaying(target: MediaTarget): boolean {
  return target.mediaQueue?.[0]?.sounding() === true;
}

function talksIntoBridge(world: World, id: string, seen: Set<SimChannel>): boolean {
  const member = world.channel(id);
  return member !== undefined && !member.muted?.has('in') && isTalking(world, member, seen);
}
