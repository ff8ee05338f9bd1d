import type { MonoTypeOperatorFunction } from 'rxjs';
import { filter } from '../rx.ts';
import { eventResources, refersTo } from './eventResources.ts';
import type { StreamEvent } from './StreamEvent.ts';

/**
 * Keeps the events that refer to one channel: as `channel`, a Dial's `caller`/`peer`/`forwarded`,
 * a transfer's legs, or the `target_uri` of a playback or recording on that channel.
 *
 * @example
 * stream.events$.pipe(forChannel('call-1'), ofType('ChannelDtmfReceived'))
 *   .subscribe((e) => digits.push(e.digit));
 */
export function forChannel<E extends StreamEvent>(channelId: string): MonoTypeOperatorFunction<E> {
  return filter((event) => refersTo(event, 'channel', channelId));
}

/**
 * Keeps the events that refer to one bridge (bridge events, channels entering or leaving it,
 * playbacks and recordings whose target is `bridge:<id>`).
 *
 * @example
 * stream.events$.pipe(forBridge('conf-1'), ofType('ChannelEnteredBridge')).subscribe(onJoin);
 */
export function forBridge<E extends StreamEvent>(bridgeId: string): MonoTypeOperatorFunction<E> {
  return filter((event) => refersTo(event, 'bridge', bridgeId));
}

/**
 * Keeps the events of one playback.
 *
 * @example
 * await firstValueFrom(stream.events$.pipe(forPlayback('pb-1'), ofType('PlaybackFinished')));
 */
export function forPlayback<E extends StreamEvent>(playbackId: string): MonoTypeOperatorFunction<E> {
  return filter((event) => refersTo(event, 'playback', playbackId));
}

/**
 * Keeps the events of one live recording, by recording name.
 *
 * @example
 * stream.events$.pipe(forRecording('voicemail-42'), ofType('RecordingFinished')).subscribe(store);
 */
export function forRecording<E extends StreamEvent>(recordingName: string): MonoTypeOperatorFunction<E> {
  return filter((event) => refersTo(event, 'recording', recordingName));
}

/**
 * Keeps the events of the endpoints of one technology, or of one endpoint when `resource` is given
 * (endpoint state changes, text messages, peer and contact status).
 *
 * @example
 * stream.events$.pipe(forEndpoint('PJSIP', 'alice'), ofType('TextMessageReceived')).subscribe(reply);
 * stream.events$.pipe(forEndpoint('PJSIP')).subscribe(trackRegistrations);
 */
export function forEndpoint<E extends StreamEvent>(
  technology: string,
  resource?: string,
): MonoTypeOperatorFunction<E> {
  const whole = resource === undefined ? undefined : `${technology}/${resource}`;
  const prefix = `${technology}/`;
  return filter((event) =>
    eventResources(event).some(
      (ref) =>
        ref.kind === 'endpoint' && (whole === undefined ? ref.id.startsWith(prefix) : ref.id === whole),
    ),
  );
}

/**
 * Keeps the state changes of one device (`Stasis:desk-1`, `PJSIP/alice`, `Local/s@ivr`).
 *
 * @example
 * stream.events$.pipe(forDevice('Stasis:desk-1'), ofType('DeviceStateChanged'))
 *   .subscribe((e) => console.log(e.device_state.state));
 */
export function forDevice<E extends StreamEvent>(deviceName: string): MonoTypeOperatorFunction<E> {
  return filter((event) => refersTo(event, 'deviceState', deviceName));
}
