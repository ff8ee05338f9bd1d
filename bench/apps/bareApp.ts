/**
 * The ceiling: the benchmark IVR written directly on ws + undici, with no library between the
 * socket and the requests. Same logic as the others (barge-in on prompt 1, two digits with
 * first/inter-digit timeouts, prompt 2, hang up), same pool size as ringflow's REST client (10).
 */
import { Pool } from 'undici';
import { WebSocket } from 'ws';
import { BareIvrCall, type IvrRequests } from '../ivr/BareIvrCall.ts';
import { IVR_APP } from '../ivr/ivrWorkload.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

interface AriEvent {
  readonly type: string;
  readonly channel?: { readonly id: string };
  readonly playback?: { readonly id: string; readonly target_uri?: string; readonly media_uri?: string };
  readonly digit?: string;
}

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

  const onEvent = (event: AriEvent) => {
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
  };

  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events?app=${IVR_APP}`, {
    headers: { authorization },
    perMessageDeflate: false,
  });
  ws.on('message', (data) => {
    probe.frameArrived();
    const event = JSON.parse(String(data)) as AriEvent;
    probe.event(event);
    onEvent(event);
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
