import type { CallRecorder } from './CallRecorder.ts';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import type { CallSound } from './feedMessages.ts';
import { filesOfMedia } from './SoundFolder.ts';

/** A sound as it is made (on a channel, or on a bridge for all in it): its id, media and files. */
type SoundSource = Pick<CallSound, 'id' | 'media' | 'files' | 'language'>;

/** A playback as its events carry it. */
export interface PlaybackJson {
  readonly id: string;
  readonly media_uri: string;
  readonly target_uri: string;
  readonly language?: string;
}

/**
 * What each channel of `ringflow dev` hears, told to the feed as `sound` messages (the page plays
 * the selected call's): playbacks on the channel, and those on a bridge it is in (each member
 * hears them, from when it enters to when it leaves); music on hold on the channel or its bridge
 * (`moh:<class>`); the ringing a flow asks for (`tone:ring`). Sounds of a bridge heard by a
 * channel have the id `<sound>@<channel>`. A channel that is destroyed hears nothing more.
 *
 * @example
 * const sounds = new ChannelSounds(feed, recorder);
 * sounds.playback('PlaybackStarted', { id: 'p1', media_uri: 'sound:hello', target_uri: 'bridge:b1' });
 */
export class ChannelSounds {
  /** Each bridge's channels. */
  private readonly members = new Map<string, Set<string>>();
  /** What each bridge plays now, by sound id. */
  private readonly onBridges = new Map<string, Map<string, SoundSource>>();
  /** What is heard now, by the id the feed knows it by. */
  private readonly heard = new Map<string, CallSound>();

  constructor(
    private readonly feed: ConsoleFeed,
    private readonly recorder: CallRecorder,
  ) {}

  /** A playback's media started, went on to its next media, or finished. */
  playback(type: string, playback: PlaybackJson): void {
    const playing = type === 'PlaybackStarted';
    if (!playing && type !== 'PlaybackContinuing' && type !== 'PlaybackFinished') return;
    const [, kind, target] = /^(channel|bridge):(.+)$/.exec(playback.target_uri) ?? [];
    if (target === undefined) return;
    const source: SoundSource = {
      id: playback.id,
      media: playback.media_uri,
      files: filesOfMedia(playback.media_uri),
      language: playback.language ?? 'en',
    };
    if (kind === 'bridge') this.onBridge(target, source, playing);
    else if (playing) this.start(target, source, source.id);
    else this.stop(source.id);
  }

  /**
   * A request of the flows, answered: the ringing (`POST|DELETE /channels/{id}/ring`) and music
   * on hold (`POST|DELETE /channels|bridges/{id}/moh`) they ask for.
   */
  request(method: string, path: string, query: Readonly<Record<string, string>>, status: number): void {
    if (status >= 300) return;
    const [, kind, id, what] = /^\/(channels|bridges)\/([^/]+)\/(ring|moh)$/.exec(path) ?? [];
    if (id === undefined || (method !== 'POST' && method !== 'DELETE')) return;
    const playing = method === 'POST';
    const moh: SoundSource = {
      id: `moh:${id}`,
      media: `moh:${query.mohClass ?? 'default'}`,
      files: [],
      language: 'en',
    };
    if (what === 'ring') {
      const ring: SoundSource = { id: `ring:${id}`, media: 'tone:ring', files: [], language: 'en' };
      if (playing) this.start(id, ring, ring.id);
      else this.stop(ring.id);
    } else if (kind === 'bridges') this.onBridge(id, moh, playing);
    // Asked again with another class: the new music replaces the old.
    else {
      this.stop(moh.id);
      if (playing) this.start(id, moh, moh.id);
    }
  }

  /** A channel entered or left a bridge, or a bridge or channel is gone. */
  event(type: string, channel: string | undefined, bridge: string | undefined): void {
    if (type === 'ChannelEnteredBridge' && channel && bridge) {
      this.membersOf(bridge).add(channel);
      for (const source of this.onBridges.get(bridge)?.values() ?? [])
        this.start(channel, source, `${source.id}@${channel}`);
    }
    if (type === 'ChannelLeftBridge' && channel && bridge) {
      this.members.get(bridge)?.delete(channel);
      for (const source of this.onBridges.get(bridge)?.values() ?? []) this.stop(`${source.id}@${channel}`);
    }
    if (type === 'BridgeDestroyed' && bridge) {
      for (const source of this.onBridges.get(bridge)?.values() ?? []) this.onBridge(bridge, source, false);
      this.members.delete(bridge);
      this.onBridges.delete(bridge);
    }
    if (type === 'ChannelDestroyed' && channel) {
      for (const [id, sound] of this.heard) if (sound.channel === channel) this.stop(id);
      for (const members of this.members.values()) members.delete(channel);
    }
  }

  private membersOf(bridge: string): Set<string> {
    const members = this.members.get(bridge) ?? new Set<string>();
    this.members.set(bridge, members);
    return members;
  }

  /** A sound of a bridge starts or stops: for each channel in it. */
  private onBridge(bridge: string, source: SoundSource, playing: boolean): void {
    const sounds = this.onBridges.get(bridge) ?? new Map<string, SoundSource>();
    this.onBridges.set(bridge, sounds);
    if (playing) sounds.set(source.id, source);
    else sounds.delete(source.id);
    for (const channel of this.members.get(bridge) ?? [])
      if (playing) this.start(channel, source, `${source.id}@${channel}`);
      else this.stop(`${source.id}@${channel}`);
  }

  private start(channel: string, source: SoundSource, id: string): void {
    const sound: CallSound = { ...source, id, call: this.recorder.callOf(channel), channel, playing: true };
    this.heard.set(id, sound);
    this.feed.send({ type: 'sound', ...sound });
  }

  private stop(id: string): void {
    const sound = this.heard.get(id);
    if (!sound) return;
    this.heard.delete(id);
    this.feed.send({ type: 'sound', ...sound, playing: false });
  }
}
