/**
 * The ceiling: the benchmark IVR written directly on ws + undici, with no library between the
 * socket and the requests. Same logic as the others (barge-in on prompt 1, two digits with
 * first/inter-digit timeouts, prompt 2, hang up), same pool size as ringflow's REST client (10).
 */
import { Pool } from 'undici';
import { WebSocket } from 'ws';
import type { BareIvrCall, IvrRequests } from '../ivr/BareIvrCall.ts';
import { IVR_APP } from '../ivr/ivrWorkload.ts';
import { type BareEvent, routeBareEvent } from './routeBareEvent.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

await runBenchApp(async ({ url, username, password, probe }) => {
  const root = new URL(url);
  const basePath = root.pathname.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const pool = new Pool(root.origin, { connections: 10, headersTimeout: 0, bodyTimeout: 0 });
  const calls = new Map<string, BareIvrCall>();
  const errors: string[] = [];

  /** `gone`: a 404 is an answer, not an error (a stopped prompt that had just ended by itself). */
  const send = (method: 'POST' | 'DELETE', path: string, gone: 'ok' | 'error' = 'error'): Promise<void> => {
    probe.request(method, path);
    return pool.request({ method, path: `${basePath}${path}`, headers: { authorization } }).then(
      async (res) => {
        const text = await res.body.text();
        probe.replied(method, path);
        if (res.statusCode === 404 && gone === 'ok') return;
        if (res.statusCode >= 300) errors.push(`${method} ${path}: ${res.statusCode} ${text}`);
      },
      (error: unknown) => {
        errors.push(`${method} ${path}: ${String(error)}`);
      },
    );
  };
  const requests: IvrRequests = {
    answer: (channelId) => send('POST', `/channels/${channelId}/answer`),
    play: (channelId, media, playbackId) =>
      void send(
        'POST',
        `/channels/${channelId}/play?media=${encodeURIComponent(media)}&playbackId=${playbackId}`,
      ),
    stopPlayback: (playbackId) => void send('DELETE', `/playbacks/${playbackId}`, 'ok'),
    hangup: (channelId) => void send('DELETE', `/channels/${channelId}?reason=normal`),
  };

  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events?app=${IVR_APP}`, {
    headers: { authorization },
    perMessageDeflate: false,
  });
  ws.on('message', (data) => {
    probe.frameArrived();
    const event = JSON.parse(String(data)) as BareEvent;
    probe.event(event);
    routeBareEvent(event, calls, requests);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });

  return {
    activeCalls: () => calls.size,
    leftovers: () => ({ calls: calls.size, wsMessageListeners: ws.listenerCount('message') }),
    errors: () => errors,
    close: async () => {
      ws.close();
      await pool.close();
    },
  } satisfies BenchApp;
});
