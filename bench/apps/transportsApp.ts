/**
 * The bare loop's IVR (`BareIvrCall`, a `switch` per event) on ringflow's two default transports
 * instead of ws and undici used directly: events from a `WsTransport` connection (each frame as
 * text, parsed here), requests through `UndiciTransport.dispatch`. Between `bare` and
 * `client-only` in `npm run bench -- --impls bare,transports,client-only,ringflow`: what the
 * transports alone add to the bare loop's CPU per call.
 */
import {
  buildEventStreamRequest,
  type TransportRequest,
  UndiciTransport,
  WsTransport,
} from '@ringflow/client';
import type { BareIvrCall, IvrRequests } from '../ivr/BareIvrCall.ts';
import { IVR_APP } from '../ivr/ivrWorkload.ts';
import { routeBareEvent, type BareEvent } from './routeBareEvent.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

await runBenchApp(async ({ url, username, password, probe }) => {
  const rest = new UndiciTransport({ url, username, password });
  const calls = new Map<string, BareIvrCall>();
  const errors: string[] = [];

  /** `gone`: a 404 is an answer, not an error (a stopped prompt that had just ended by itself). */
  const send = (
    method: 'POST' | 'DELETE',
    path: string,
    query: [string, string][],
    gone: 'ok' | 'error' = 'error',
  ): Promise<void> =>
    new Promise((resolve) => {
      const request: TransportRequest = { method, path, query };
      probe.request(method, `${path}?${query.map(([, v]) => v).join('&')}`);
      rest.dispatch(request, {
        dispatched() {},
        replied(reply) {
          probe.replied(method, path);
          if (!(reply.status === 404 && gone === 'ok') && reply.status >= 300)
            errors.push(`${method} ${path}: ${reply.status}`);
          resolve();
        },
        failed(error) {
          errors.push(`${method} ${path}: ${String(error)}`);
          resolve();
        },
      });
    });
  const requests: IvrRequests = {
    answer: (channelId) => send('POST', `/channels/${channelId}/answer`, []),
    play: (channelId, media, playbackId) =>
      void send('POST', `/channels/${channelId}/play`, [
        ['media', media],
        ['playbackId', playbackId],
      ]),
    stopPlayback: (playbackId) => void send('DELETE', `/playbacks/${playbackId}`, [], 'ok'),
    hangup: (channelId) => void send('DELETE', `/channels/${channelId}`, [['reason', 'normal']]),
  };

  let closeEvents = () => {};
  const opened = new Promise<void>((resolve, reject) => {
    const connection = new WsTransport().connect(
      buildEventStreamRequest({ url, apps: [IVR_APP], username, password }),
      {
        open: () => resolve(),
        message: (frame) => {
          probe.frameArrived();
          const event = (typeof frame === 'string' ? JSON.parse(frame) : frame) as BareEvent;
          probe.event(event);
          routeBareEvent(event, calls, requests);
        },
        pong: () => {},
        rejected: (status, body) => reject(new Error(`refused: ${status} ${body}`)),
        error: (error) => reject(error),
        closed: () => {},
      },
    );
    closeEvents = () => connection.close();
  });
  await opened;

  return {
    activeCalls: () => calls.size,
    leftovers: () => ({ calls: calls.size }),
    errors: () => errors,
    close: async () => {
      closeEvents();
      await rest.close();
    },
  } satisfies BenchApp;
});
