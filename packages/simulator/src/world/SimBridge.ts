import type { Bridge as BridgeJson } from '@ringflow/client';
import type { EventScope } from '../events/EventScope.ts';
import type { RecordingTarget, SoundSource } from './LiveRecording.ts';
import type { MediaJob, MediaTarget } from './mediaQueue.ts';

/** Attributes a bridge type may combine (`type=mixing,dtmf_events`). */
export const BRIDGE_ATTRIBUTES = [
  'mixing',
  'holding',
  'dtmf_events',
  'proxy_media',
  'video_sfu',
  'video_single',
  'sdp_label',
] as const;

/** A mixing point for channels, created through the interface. */
export class SimBridge implements MediaTarget {
  readonly channelIds: string[] = [];
  videoMode: 'talker' | 'single' | 'sfu' = 'talker';
  videoSourceId: string | undefined;
  vars: Map<string, string> | undefined;
  mediaQueue: MediaJob[] | undefined;
  mohClass: string | undefined;
  recordingName: string | undefined;
  readonly scope: EventScope;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly attributes: ReadonlySet<string>,
    readonly creator: string,
    readonly creationtime: string,
  ) {
    // Bridge media events reach apps subscribed to everything twice, as observed on a real server.
    this.scope = { bridgeId: id, twiceToAll: true };
    if (attributes.has('video_sfu')) this.videoMode = 'sfu';
  }

  /**
   * Where recordings of this bridge run. A real server records a bridge through an internal
   * recorder channel and plays media through an announcer channel, so a bridge recording and
   * bridge playbacks run side by side; each has its own queue here.
   */
  readonly recorder: RecordingTarget & { recordingName: string | undefined } = new BridgeRecorder(this);

  get uri(): string {
    return `bridge:${this.id}`;
  }

  recordingEnded(name: string): void {
    if (this.recordingName === name) this.recordingName = undefined;
  }

  get holding(): boolean {
    return this.attributes.has('holding');
  }

  /** The bridging technology the real server picks: two-party mixing is `simple_bridge`, more is `softmix`. */
  get technology(): string {
    if (this.holding) return 'holding_bridge';
    if (this.attributes.has('proxy_media') && !this.attributes.has('mixing')) return 'native_rtp';
    return this.channelIds.length > 2 || this.videoMode === 'sfu' ? 'softmix' : 'simple_bridge';
  }

  toJson(): BridgeJson {
    const json: BridgeJson = {
      id: this.id,
      technology: this.technology,
      bridge_type: this.holding ? 'holding' : 'mixing',
      bridge_class: 'stasis',
      creator: this.creator,
      name: this.name,
      channels: [...this.channelIds],
      creationtime: this.creationtime,
      video_mode: this.videoMode,
    };
    if (this.videoSourceId !== undefined) json.video_source_id = this.videoSourceId;
    return json;
  }
}

/** The recording side of a bridge: its own media queue, the bridge's identity and event scope. */
class BridgeRecorder implements RecordingTarget {
  mediaQueue: MediaJob[] | undefined;

  constructor(private readonly bridge: SimBridge) {}

  get uri(): string {
    return this.bridge.uri;
  }

  get scope(): EventScope {
    return this.bridge.scope;
  }

  get recordingName(): string | undefined {
    return this.bridge.recordingName;
  }

  set recordingName(name: string | undefined) {
    this.bridge.recordingName = name;
  }

  get soundSource(): SoundSource {
    return { kind: 'bridge', bridge: this.bridge };
  }

  recordingEnded(name: string): void {
    this.bridge.recordingEnded(name);
  }
}
