import { BareIvrCall, type IvrRequests } from '../ivr/BareIvrCall.ts';

/** The fields of an ARI event the hand-written IVR reads. */
export interface BareEvent {
  readonly type: string;
  readonly channel?: { readonly id: string };
  readonly playback?: { readonly id: string; readonly target_uri?: string; readonly media_uri?: string };
  readonly digit?: string;
}

/**
 * The bare loop's event handling, shared by the applications that run the hand-written IVR
 * (`bareApp.ts` on ws + undici, `transportsApp.ts` and `clientOnlyApp.ts` on ringflow's layers):
 * a `switch` on the type, a `Map` of calls by channel id; every other event is dropped.
 */
export function routeBareEvent(
  event: BareEvent,
  calls: Map<string, BareIvrCall>,
  requests: IvrRequests,
): void {
  switch (event.type) {
    case 'StasisStart': {
      const call = new BareIvrCall(event.channel!.id, requests);
      calls.set(call.id, call);
      call.start();
      return;
    }
    case 'ChannelDtmfReceived':
      if (event.digit !== undefined) calls.get(event.channel!.id)?.digit(event.digit);
      return;
    case 'PlaybackFinished': {
      const playbackId = event.playback!.id;
      calls.get(playbackId.slice(0, -3))?.playbackFinished(playbackId);
      return;
    }
    case 'StasisEnd': {
      const call = calls.get(event.channel!.id);
      if (!call) return;
      call.end();
      calls.delete(call.id);
      return;
    }
    default:
      return;
  }
}
