import type { Channel as ChannelJson, TimerHandle } from '@ringflow/client';
import type { StasisExit } from '../dialplan/DialplanHost.ts';
import type { EventScope, ScopeChannel } from '../events/EventScope.ts';
import type { SoundSource } from './LiveRecording.ts';
import type { MediaJob, MediaTarget } from './mediaQueue.ts';
import type { Destination } from './sendToDestination.ts';

export type ChannelState = ChannelJson['state'];

/** Directions of mute, snoop spy and whisper. */
export type AudioDirection = 'both' | 'in' | 'out';

/**
 * One simulated channel (a call leg). Plain fields only, no timers or closures while idle, so
 * tens of thousands fit in one process. Changes go through the World, which compares the new
 * snapshot with the last published one and raises the events a real server raises.
 */
export class SimChannel implements ScopeChannel, MediaTarget {
  readonly id: string;
  readonly name: string;
  readonly technology: string;
  /** `tech/resource` of the owning endpoint; undefined for Local, Snoop and other internal channels. */
  readonly endpointKey: string | undefined;
  /** The device the channel counts against (`Local/s@stasis-ivr`, `PJSIP/alice`). */
  readonly deviceName: string;
  readonly creationtime: string;

  state: ChannelState;
  callerName = '';
  callerNumber = '';
  connectedName = '';
  connectedNumber = '';
  context: string;
  exten: string;
  priority: number;
  appName = '';
  appData = '';
  language = 'en';
  accountcode = '';
  /** What the snapshot shows when no dialplan application runs (`AppDial2` for an originated leg). */
  idleApp: readonly [name: string, data: string] | undefined;

  /** Channel variables; created on first use to keep idle channels small. */
  vars: Map<string, string> | undefined;

  /** The other half of a Local channel pair. */
  peer: SimChannel | undefined;
  /** 1 or 2 for the halves of a Local pair. */
  half: 1 | 2 | undefined;

  /** The Stasis application the channel is in, if any. */
  app: string | undefined;
  /** The channel runs dialplan (it has a PBX); false for legs driven only by an originate. */
  inDialplan = false;
  /** Set while a hangup is under way; the channel refuses further work. */
  hangingUp = false;
  /** Left its application by `continue` without a dialplan Stasis(): STASISSTATUS is set at hangup (observed). */
  stasisStatusPending = false;
  destroyed = false;
  hangupCause = 16;

  // Media and call features; undefined or false when unused.
  bridgeId: string | undefined;
  bridgeRole: string | undefined;
  muted: Set<AudioDirection> | undefined;
  held = false;
  mohClass: string | undefined;
  silence = false;
  ringing = false;
  talkDetect = false;
  /** Since when its talk detection has seen talking (ChannelTalkingStarted sent), if it has. */
  talkDetectedSince: number | undefined;
  holdIntercept = false;
  /** Since when its caller has been talking (the driver's `startTalking`). */
  talkingSince: number | undefined;
  /** Id of the channel a snoop channel spies on. */
  snoopTarget: string | undefined;
  /** Snoop channels spying on this one; they are destroyed with it. */
  snoopers: string[] | undefined;
  /** Id of the live recording of this channel, if one runs. */
  recordingName: string | undefined;
  /** Playbacks and recordings of this channel, the running one first. */
  mediaQueue: MediaJob[] | undefined;
  /** Settles the dialplan's Stasis() when the channel leaves its application. */
  stasisExit: ((exit: StasisExit) => void) | undefined;
  /** Settles whatever the dialplan waits for (Wait, Playback) early, when the channel hangs up. */
  wake: (() => void) | undefined;
  /** Timer of an unanswered originate (its `timeout`), cleared on answer or hangup. */
  dialTimer: TimerHandle | undefined;
  /** Timer of the far end of a dialed endpoint: ringing, then answering by the simulator's policy. */
  farEndTimer: TimerHandle | undefined;
  /** For a leg being dialed by an originate: the dial has not been answered yet. */
  dialing = false;
  /**
   * A Local `;1` leg whose first Dial event (empty dialstatus) waits until its `;2` half's
   * dialplan has started: see `announceDial`.
   */
  dialAnnouncePending = false;
  /**
   * A `;1` half that hung up first: it is destroyed without waiting for its `;2` half, whose
   * own thread leaves its application and dialplan afterwards (see `hangupChannel`).
   */
  leftPeerBehind = false;
  /** The dial string of an originated leg (`s@stasis-ivr`), reported by Dial events. */
  dialString: string | undefined;
  /** Where an answered originate goes: an application with args, or a dialplan location. */
  afterAnswer: Destination | undefined;

  // The last published snapshot fields, compared to raise ChannelStateChange, ChannelDialplan...
  pubState: ChannelState;
  pubCaller = '';
  pubConnected = '';
  pubContext: string;
  pubExten: string;
  pubPriority: number;
  pubApp = '';

  constructor(init: {
    id: string;
    name: string;
    technology: string;
    endpointKey: string | undefined;
    deviceName: string;
    creationtime: string;
    state: ChannelState;
    context: string;
    exten: string;
    priority?: number;
  }) {
    this.id = init.id;
    this.name = init.name;
    this.technology = init.technology;
    this.endpointKey = init.endpointKey;
    this.deviceName = init.deviceName;
    this.creationtime = init.creationtime;
    this.state = this.pubState = init.state;
    this.context = this.pubContext = init.context;
    this.exten = this.pubExten = init.exten;
    this.priority = this.pubPriority = init.priority ?? 1;
  }

  /** `channel:{id}`, the target URI of its playbacks and recordings. */
  get uri(): string {
    return `channel:${this.id}`;
  }

  /** Where events about the channel's media go. */
  get scope(): EventScope {
    return { channels: [this] };
  }

  get soundSource(): SoundSource {
    return { kind: 'channel', channel: this };
  }

  recordingEnded(name: string): void {
    if (this.recordingName === name) this.recordingName = undefined;
  }

  get alive(): boolean {
    return !this.destroyed;
  }

  /** The channel as every reply and event shows it, at this moment. */
  snapshot(): ChannelJson {
    return {
      id: this.id,
      name: this.name,
      state: this.state,
      protocol_id: '',
      caller: { name: this.callerName, number: this.callerNumber },
      connected: { name: this.connectedName, number: this.connectedNumber },
      accountcode: this.accountcode,
      dialplan: {
        context: this.context,
        exten: this.exten,
        priority: this.priority,
        app_name: this.appName,
        app_data: this.appData,
      },
      creationtime: this.creationtime,
      language: this.language,
    };
  }

  getVar(name: string): string | undefined {
    return this.vars?.get(name);
  }

  /** Sets the shown dialplan application; an empty name falls back to the idle application. */
  setApp(name: string, data: string): void {
    if (name === '' && this.idleApp) [this.appName, this.appData] = this.idleApp;
    else {
      this.appName = name;
      this.appData = data;
    }
  }
}
