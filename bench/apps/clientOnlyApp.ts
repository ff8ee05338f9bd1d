/**
 * The bare loop's IVR (`BareIvrCall`, a `switch` per event) on ringflow's client, without the
 * runtime: events from `createEventStream` (`events$`, an RxJS Subject), requests through
 * `createRestClient`'s handles (`client.channel(id).answer()`, each a `PendingRequest` with its
 * reply deadline). Between `transports` and `ringflow` in
 * `npm run bench -- --impls bare,transports,client-only,ringflow`: what the client adds to its
 * transports, and so what the runtime, the flow and XState add to the client.
 */
import { createEventStream, createRestClient, type StreamEvent } from '@ringflow/client';
import type { BareIvrCall, IvrRequests } from '../ivr/BareIvrCall.ts';
import { IVR_APP } from '../ivr/ivrWorkload.ts';
import { type BareEvent, routeBareEvent } from './routeBareEvent.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

await runBenchApp(async ({ url, username, password, probe }) => {
  const client = createRestClient({ url, username, password });
  const calls = new Map<string, BareIvrCall>();
  const errors: string[] = [];

  const sent = (method: string, path: string, request: Promise<unknown>, gone: 'ok' | 'error' = 'error') =>
    request.then(
      () => probe.replied(method, path),
      (error: unknown) => {
        probe.replied(method, path);
        if (gone === 'ok' && (error as { status?: number }).status === 404) return;
        errors.push(`${method} ${path}: ${String(error)}`);
      },
    );
  const requests: IvrRequests = {
    answer: (channelId) => {
      probe.request('POST', `/channels/${channelId}/answer`);
      return sent('POST', '/channels/answer', client.channel(channelId).answer());
    },
    play: (channelId, media, playbackId) => {
      probe.request('POST', `/channels/${channelId}/play?media=${media}`);
      void sent('POST', '/channels/play', client.channel(channelId).play({ media, playbackId }));
    },
    stopPlayback: (playbackId) => {
      probe.request('DELETE', `/playbacks/${playbackId}`);
      void sent('DELETE', '/playbacks', client.playback(playbackId).stop(), 'ok');
    },
    hangup: (channelId) => {
      probe.request('DELETE', `/channels/${channelId}`);
      void sent('DELETE', '/channels', client.channel(channelId).hangup({ reason: 'normal' }));
    },
  };

  const stream = createEventStream({ url, apps: [IVR_APP], username, password, stopOnRejection: true });
  stream.events$.subscribe((event: StreamEvent) => {
    // The stream parsed the frame; the probe's frame time is the event's (no separate frame hook).
    probe.frameArrived();
    probe.event(event as object);
    routeBareEvent(event as unknown as BareEvent, calls, requests);
  });
  await stream.whenOpen();

  return {
    activeCalls: () => calls.size,
    leftovers: () => ({ calls: calls.size }),
    errors: () => errors,
    close: async () => {
      await stream.close();
      await client.close();
    },
  } satisfies BenchApp;
});
