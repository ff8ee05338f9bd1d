import type { Clock } from '@ringflow/client';
import type { EventBus } from '../events/EventBus.ts';
import type { EventScope } from '../events/EventScope.ts';
import type { StasisApp } from '../events/StasisApp.ts';
import type { SimBridge } from './SimBridge.ts';
import type { SimChannel } from './SimChannel.ts';
import type { SimPlayback } from './SimPlayback.ts';
import type { LiveRecording } from './LiveRecording.ts';
import type { Endpoints } from './Endpoints.ts';
import type { WorldServices } from './WorldServices.ts';

const CALLER_ID_PRESENTATION = {
  caller_presentation: 0,
  caller_presentation_txt: 'Presentation Allowed, Not Screened',
};

/**
 * The simulated server's state: every channel, bridge, playback and live recording, the global
 * variables and endpoints, plus the services (clock, event bus, dialplan, facilities) the rules
 * use. Rules live in their own modules and act on the World; the World itself only keeps the
 * registries and turns channel changes into the events a real server raises.
 */
export class World {
  readonly channels = new Map<string, SimChannel>();
  readonly bridges = new Map<string, SimBridge>();
  readonly playbacks = new Map<string, SimPlayback>();
  /** Live recordings by name. */
  readonly recordings = new Map<string, LiveRecording>();
  readonly globals = new Map<string, string>();
  /**
   * Applications served by one connection per call (outbound WebSockets, `per_call_config`): by
   * the name `Stasis()` gives, what opens the call's connection and resolves with the name it
   * registered (`app:<channel name>`), or undefined when no connection could be made.
   */
  readonly perCallApps = new Map<string, (ch: SimChannel) => Promise<string | undefined>>();
  /** Channels per device name, for the device states the real server derives from channels. */
  private readonly deviceUse = new Map<string, number>();
  private uniqueSeq = 0;
  private localSeq = 0;
  private readonly perTechSeq = new Map<string, number>();
  /** When the server started (info's `startup_time`). */
  readonly startedAt: number;

  constructor(
    readonly clock: Clock,
    readonly bus: EventBus,
    readonly endpoints: Endpoints,
    readonly services: WorldServices,
  ) {
    this.startedAt = clock.now();
  }

  /** A server-assigned unique id in the real server's form (`1795319265.24`). */
  newUniqueId(): string {
    for (;;) {
      const id = `${Math.floor(this.clock.now() / 1000)}.${this.uniqueSeq++}`;
      if (!this.channels.has(id)) return id;
    }
  }

  /** The 8-hex-digit sequence of Local channel names (`Local/s@ctx-0000000b;1`). */
  nextLocalSequence(): string {
    return (this.localSeq++).toString(16).padStart(8, '0');
  }

  /** The per-technology sequence of other channel names (`PJSIP/alice-00000003`). */
  nextSequence(tech: string): string {
    const n = this.perTechSeq.get(tech) ?? 0;
    this.perTechSeq.set(tech, n + 1);
    return n.toString(16).padStart(8, '0');
  }

  now(): string {
    return this.bus.now();
  }

  publish(type: string, fields: Readonly<Record<string, unknown>>, scope: EventScope): void {
    this.bus.publish(type, fields, scope);
  }

  /** Publishes an event about one channel, with its snapshot as `channel`. */
  publishChannel(type: string, ch: SimChannel, fields?: Readonly<Record<string, unknown>>): void {
    this.bus.publish(type, { ...fields, channel: ch.snapshot() }, { channels: [ch] });
  }

  /**
   * Raises the events of whatever changed on a channel since the last published snapshot, in the
   * real server's order: state, dialplan location, caller id, connected line.
   */
  channelChanged(ch: SimChannel): void {
    if (ch.destroyed) return;
    if (ch.state !== ch.pubState) {
      ch.pubState = ch.state;
      this.publishChannel('ChannelStateChange', ch);
      this.updateDevice(ch.deviceName, 0);
    }
    const cepChanged =
      ch.context !== ch.pubContext || ch.exten !== ch.pubExten || ch.priority !== ch.pubPriority;
    if (ch.appName !== '' && (cepChanged || (ch.pubApp === '' && ch.appName !== ''))) {
      this.publishChannel('ChannelDialplan', ch, { dialplan_app: ch.appName, dialplan_app_data: ch.appData });
    }
    ch.pubContext = ch.context;
    ch.pubExten = ch.exten;
    ch.pubPriority = ch.priority;
    ch.pubApp = ch.appName;
    const caller = `${ch.callerName}\u0000${ch.callerNumber}`;
    if (caller !== ch.pubCaller) {
      ch.pubCaller = caller;
      this.publishChannel('ChannelCallerId', ch, CALLER_ID_PRESENTATION);
    }
    const connected = `${ch.connectedName}\u0000${ch.connectedNumber}`;
    if (connected !== ch.pubConnected) {
      ch.pubConnected = connected;
      this.publishChannel('ChannelConnectedLine', ch);
    }
  }

  /** Records the published caller and connected line without events (at creation). */
  markPublished(ch: SimChannel): void {
    ch.pubState = ch.state;
    ch.pubContext = ch.context;
    ch.pubExten = ch.exten;
    ch.pubPriority = ch.priority;
    ch.pubApp = ch.appName;
    ch.pubCaller = `${ch.callerName}\u0000${ch.callerNumber}`;
    ch.pubConnected = `${ch.connectedName}\u0000${ch.connectedNumber}`;
  }

  /** Sets a plain channel variable and raises ChannelVarset; an empty value unsets it quietly. */
  setChannelVar(ch: SimChannel, name: string, value: string): void {
    if (value === '' && name !== 'STASISSTATUS') {
      ch.vars?.delete(name);
      return;
    }
    ch.vars ??= new Map();
    ch.vars.set(name, value);
    this.publishChannel('ChannelVarset', ch, { variable: name, value });
  }

  /** Sets a global variable; subscribers of every channel see ChannelVarset without a channel. */
  setGlobalVar(name: string, value: string): void {
    if (value === '') this.globals.delete(name);
    else this.globals.set(name, value);
    this.publish('ChannelVarset', { variable: name, value }, { serverWide: true });
  }

  /**
   * Counts channels per device and reports the derived state (`INUSE` while the device has
   * channels, `NOT_INUSE` after the last one); the device-state store raises DeviceStateChanged
   * when it changes.
   */
  updateDevice(deviceName: string, delta: number): void {
    if (delta === 0) return;
    const count = (this.deviceUse.get(deviceName) ?? 0) + delta;
    if (count > 0) this.deviceUse.set(deviceName, count);
    else this.deviceUse.delete(deviceName);
    this.services.reportDevice(deviceName, count > 0 ? 'INUSE' : 'NOT_INUSE');
  }

  /** The state of a device derived from its channels, or undefined when it has none. */
  channelDeviceState(deviceName: string): 'INUSE' | undefined {
    return this.deviceUse.has(deviceName) ? 'INUSE' : undefined;
  }

  /** Diagnostics (dialplan warnings, failures), newest last, at most 500. */
  readonly diagnostics: { level: string; message: string; time: string }[] = [];

  log(level: string, message: string): void {
    this.diagnostics.push({ level, message, time: this.now() });
    if (this.diagnostics.length > 500) this.diagnostics.shift();
  }

  /**
   * An application the server still has, whether or not a socket holds it now: the real server
   * only deactivates an application whose connection closed, and keeps it while channels are in
   * it (`app_is_finished` in res/stasis/app.c); user events and `/applications/{name}` find it
   * meanwhile. Undefined for an application it never had, or a deactivated one with no channel.
   */
  stasisApp(name: string): StasisApp | undefined {
    const connected = this.bus.app(name);
    if (connected) return connected;
    const known = this.bus.known(name);
    if (!known) return undefined;
    for (const ch of this.channels.values()) if (!ch.destroyed && ch.app === name) return known;
    return undefined;
  }

  /** Finds a live channel. */
  channel(id: string): SimChannel | undefined {
    const ch = this.channels.get(id);
    return ch && !ch.destroyed ? ch : undefined;
  }
}
