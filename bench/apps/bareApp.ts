/**
 * The ceiling: the benchmark IVR written directly on ws + undici, with no library between the
 * socket and the requests. Same logic as the others (barge-in on prompt 1, two digits with
 * first/inter-digit timeouts, prompt 2, hang up), same pool size as ringflow's REST client (10).
 */
import { Pool } from 'undici';
import { WebSocket } from 'ws';
import { DIGIT_TIMEOUT_MS, IVR_APP, MAX_DIGITS, PROMPT_1, PROMPT_2 } from '../ivr/ivrWorkload.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

interface Call {
  readonly id: string;
  stage: 'answering' | 'prompt1' | 'digits' | 'prompt2' | 'leaving';
  digits: string;
  timer: NodeJS.Timeout | undefined;
}

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
  const calls = new Map<string, Call>();
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
  const hangup = (call: Call) => {
    call.stage = 'leaving';
    void send('DELETE', `/channels/${call.id}?reason=normal`);
  };
  const playPrompt2 = (call: Call) => {
    clearTimeout(call.timer);
    call.stage = 'prompt2';
    void send(
      'POST',
      `/channels/${call.id}/play?media=${encodeURIComponent(PROMPT_2)}&playbackId=${call.id}-p2`,
    );
  };
  /** Waits for the next digit; silence for the timeout ends collection (prompt 2 all the same). */
  const waitForDigit = (call: Call) => {
    clearTimeout(call.timer);
    call.timer = setTimeout(() => playPrompt2(call), DIGIT_TIMEOUT_MS);
  };
  const addDigit = (call: Call, digit: string) => {
    call.digits += digit;
    if (call.digits.length >= MAX_DIGITS) playPrompt2(call);
    else waitForDigit(call);
  };

  const onEvent = (event: AriEvent) => {
    switch (event.type) {
      case 'StasisStart': {
        const id = event.channel!.id;
        const call: Call = { id, stage: 'answering', digits: '', timer: undefined };
        calls.set(id, call);
        send('POST', `/channels/${id}/answer`).then(() => {
          if (call.stage !== 'answering') return;
          call.stage = 'prompt1';
          void send('POST', `/channels/${id}/play?media=${encodeURIComponent(PROMPT_1)}&playbackId=${id}-p1`);
        });
        return;
      }
      case 'ChannelDtmfReceived': {
        const call = calls.get(event.channel!.id);
        if (!call || event.digit === undefined) return;
        if (call.stage === 'prompt1') {
          // Barge-in: the key stops prompt 1 and counts.
          void send('DELETE', `/playbacks/${call.id}-p1`, 'ok');
          addDigit(call, event.digit);
        } else if (call.stage === 'digits') addDigit(call, event.digit);
        return;
      }
      case 'PlaybackFinished': {
        const playbackId = event.playback!.id;
        const call = calls.get(playbackId.slice(0, -3));
        if (!call) return;
        if (call.stage === 'prompt1' && playbackId.endsWith('-p1')) {
          call.stage = 'digits';
          waitForDigit(call);
        } else if (call.stage === 'prompt2' && playbackId.endsWith('-p2')) hangup(call);
        return;
      }
      case 'StasisEnd': {
        const call = calls.get(event.channel!.id);
        if (!call) return;
        clearTimeout(call.timer);
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
