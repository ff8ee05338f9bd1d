import { type Channel, formatTimestamp, parseStasisAppData, type StreamEvent } from '@ringflow/client';
import type { OwnedResource } from '../session/OwnedResources.ts';
import type { ServerView } from './ServerView.ts';

/**
 * The field every event made up by a recovery carries (`{ type: 'PlaybackFinished', ...,
 * recovered: true }`): the server's own event was lost, and the runtime learned what happened by
 * asking the server. A machine may read it; the session ends a call whose hang-up was recovered
 * as `reconciled`.
 */
export const RECOVERED = 'recovered';

/** True for an event a recovery made up (see {@link RECOVERED}). */
export function isRecovered(event: object): boolean {
  return RECOVERED in event && event[RECOVERED] === true;
}

/** What a recovery needs of the call it checks (a `CallSession` gives it). */
export interface RecoverableCall {
  readonly channelId: string;
  /** The application the call belongs to: a dialled leg in it has answered. */
  readonly app: string | undefined;
  /** The call's clock time: made-up events are stamped with it, as the server stamps events. */
  now(): number;
  /** The resource the call owns under that kind and id now (undefined once an event let it go). */
  owned(kind: OwnedResource['kind'], id: string): OwnedResource | undefined;
  /** Everything the call owns now, its own channel included. */
  allOwned(): readonly OwnedResource[];
  /** True once the call has ended: nothing more is told. */
  readonly ended: boolean;
  /** Hands the machine an event it missed, as if the server had sent it (its `recovered` set). */
  tell(event: StreamEvent): void;
}

/** Which of the call's resources a recovery checks. */
export type RecoveryScope =
  /** After a call was restored from its record: everything it owned (nothing was followed). */
  | 'restored'
  /**
   * After a gap in the call's events: what the server is known to have (see
   * {@link OwnedResource.confirmed}); one still on its way to the server is not missing.
   */
  | 'gap'
  /** These resources only (the watchdog's overdue waits). */
  | readonly OwnedResource[];

/** What a recovery found and did. */
export interface Recovery {
  /** What the machine was told, one phrase each (`playback p-1 finished`). */
  readonly told: readonly string[];
  /** The types of the events told, in order (for the metrics). */
  readonly events: readonly string[];
  /** Resources checked and found as the call believes them (still playing, ringing, up...). */
  readonly present: readonly OwnedResource[];
  /** The call's own channel is gone: the machine was told `StasisEnd` (the hang-up path runs). */
  readonly callGone: boolean;
}

/**
 * Asks the server about what a call waits on and tells its machine the events it missed, in the
 * words of the events it would have had, each marked `recovered: true`:
 * - its own channel gone, or running another dialplan application: `StasisEnd` (the caller
 *   left, or the call left the application: the flow's hang-up path runs; nothing else is
 *   checked);
 * - a playback gone: `PlaybackFinished` (it played to the end, or never started: either way it
 *   is not played again);
 * - a live recording gone: `RecordingFinished` when it was stored, else `RecordingFailed`; one
 *   that started meanwhile: `RecordingStarted`;
 * - a dialled channel (or snoop) gone: `ChannelDestroyed`; one that entered the application
 *   meanwhile (answered): `StasisStart`;
 * - a bridge gone: `BridgeDestroyed`.
 * An event is told only if the call still owns the resource when the server's answer comes (its
 * own event may have arrived meanwhile: then it is not told twice). What cannot be learned from
 * the server (keys pressed during a gap) is lost: the flow's no-input handling takes over.
 * Throws when the server cannot be asked (the caller decides what to do).
 *
 * @example
 * const { told } = await recoverCall(call, askServer(client), 'restored');
 */
export async function recoverCall(
  call: RecoverableCall,
  view: ServerView,
  scope: RecoveryScope,
): Promise<Recovery> {
  const told: string[] = [];
  const events: string[] = [];
  const present: OwnedResource[] = [];
  const tell = (event: Record<string, unknown> & { type: string }, what: string) => {
    if (call.ended) return;
    told.push(what);
    events.push(event.type);
    call.tell({ ...event, timestamp: formatTimestamp(call.now()), [RECOVERED]: true } as StreamEvent);
  };
  const checked =
    typeof scope === 'string'
      ? call.allOwned().filter((o) => scope === 'restored' || o.confirmed || o.id === call.channelId)
      : scope;
  const main = checked.find((o) => o.kind === 'channel' && o.id === call.channelId);
  if (main) {
    const channel = await view.channel(call.channelId);
    // Still on the server but out of the application (continued, redirected, moved to another
    // application) and its StasisEnd was lost.
    const left = channel !== undefined && leftApplication(channel, call.app);
    if (!channel || left) {
      tell(
        { type: 'StasisEnd', application: call.app ?? '', channel: channel ?? { id: call.channelId } },
        channel ? 'the call left the application' : 'the caller left',
      );
      return { told, events, present, callGone: true };
    }
    present.push(main);
  }
  await Promise.all(
    checked
      .filter((o) => o !== main)
      .map(async (resource) => {
        const still = await checkResource(call, view, resource, tell);
        if (still) present.push(resource);
      }),
  );
  return { told, events, present, callGone: false };
}

/**
 * Whether a channel listed by the server is out of the application `app` although it is still
 * there: running another dialplan application, or the Stasis of another application (a per-call
 * connection's `<app>:<channel>` counts as `<app>`). A listing without `dialplan.app_name`
 * (servers before 1.10) cannot tell: false.
 */
function leftApplication(channel: Channel, app: string | undefined): boolean {
  const appName = channel.dialplan?.app_name;
  if (appName === undefined || appName === '') return false;
  if (appName !== 'Stasis') return true;
  const stasis = parseStasisAppData(channel.dialplan ?? {});
  if (!stasis || app === undefined) return false;
  const colon = app.indexOf(':');
  return stasis.app !== (colon > 0 ? app.slice(0, colon) : app);
}

type Tell = (event: Record<string, unknown> & { type: string }, what: string) => void;

/** Checks one resource; true when it is as the call believes it (nothing to tell). */
async function checkResource(
  call: RecoverableCall,
  view: ServerView,
  resource: OwnedResource,
  tell: Tell,
): Promise<boolean> {
  const { kind, id } = resource;
  // Told only while the call still owns it: its own event may have come meanwhile.
  const stillOwned = () => call.owned(kind, id);
  if (kind === 'playback') {
    const playback = await view.playback(id);
    if (playback) return true;
    if (stillOwned())
      tell(
        { type: 'PlaybackFinished', playback: { id, media_uri: '', state: 'done' } },
        `playback ${id} finished`,
      );
    return false;
  }
  if (kind === 'recording') {
    const live = await view.liveRecording(id);
    if (live) {
      if (stillOwned()?.started) return true;
      if (stillOwned()) tell({ type: 'RecordingStarted', recording: live }, `recording ${id} started`);
      return false;
    }
    const stored = await view.storedRecording(id);
    if (!stillOwned()) return false;
    if (stored)
      tell(
        { type: 'RecordingFinished', recording: { name: id, state: 'done', format: stored.format } },
        `recording ${id} finished`,
      );
    else
      tell(
        {
          type: 'RecordingFailed',
          recording: { name: id, state: 'failed', cause: 'lost while its events were' },
        },
        `recording ${id} failed`,
      );
    return false;
  }
  if (kind === 'channel') {
    const channel = await view.channel(id);
    if (!channel) {
      if (stillOwned())
        tell(
          { type: 'ChannelDestroyed', channel: { id }, cause: 16, cause_txt: 'Normal Clearing' },
          `channel ${id} gone`,
        );
      return false;
    }
    const stasis = parseStasisAppData(channel.dialplan ?? {});
    const owned = stillOwned();
    if (owned && !owned.started && stasis && stasis.app === call.app) {
      tell(
        { type: 'StasisStart', application: stasis.app, args: [...stasis.args], channel },
        `channel ${id} entered the application`,
      );
      return false;
    }
    return true;
  }
  if (kind === 'bridge') {
    const bridge = await view.bridge(id);
    if (bridge) return true;
    if (stillOwned()) tell({ type: 'BridgeDestroyed', bridge: { id } }, `bridge ${id} gone`);
    return false;
  }
  return true;
}
