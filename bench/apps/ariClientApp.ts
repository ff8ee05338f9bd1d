/**
 * The benchmark IVR on the official Node client, `ari-client`, written the way its README and
 * examples do it: `client.on('StasisStart')`, `channel.answer()`, `channel.play(..., playback)`,
 * `playback.once('PlaybackFinished')`, `channel.on('ChannelDtmfReceived')`. Same logic as the
 * others: barge-in on prompt 1, MAX_DIGITS digits with first/inter-digit timeouts, prompt 2, hang up.
 *
 * Probe hooks: frames are timed by a listener put in front of ari-client's own on its WebSocket
 * (`client._ws`, private), and requests by Node's `http.client.request.start` diagnostics
 * channel (ari-client sends them with `http.request`, through swagger-client and shred).
 */
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import ari from 'ari-client';
import { DIGIT_TIMEOUT_MS, IVR_APP, MAX_DIGITS, PROMPT_1, PROMPT_2 } from '../ivr/ivrWorkload.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

/** The parts of ari-client's (untyped) objects this app uses. */
interface AriResource {
  on(event: string, listener: (event: AriEvent, resource: AriResource) => void): void;
  once(event: string, listener: (event: AriEvent, resource: AriResource) => void): void;
  answer(): Promise<unknown>;
  play(params: { media: string }, playback: AriResource): Promise<unknown>;
  stop(): Promise<unknown>;
  hangup(params?: { reason: string }): Promise<unknown>;
  readonly id: string;
}
interface AriEvent {
  readonly type: string;
  readonly digit?: string;
  readonly channel?: { readonly id: string };
  readonly playback?: { readonly target_uri?: string; readonly media_uri?: string };
}
interface AriClient {
  on(event: string, listener: (event: AriEvent, resource: AriResource) => void): void;
  Playback(): AriResource;
  start(apps: string): Promise<unknown>;
  stop(): void;
  eventNames(): (string | symbol)[];
  listenerCount(event: string | symbol): number;
  readonly _ws: { prependListener(event: 'message', listener: () => void): void };
  readonly _instanceListeners: Record<string, unknown[]>;
}

await runBenchApp(async ({ url, username, password, probe }) => {
  const errors: string[] = [];
  const fail = (what: string) => (error: unknown) => {
    errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  };
  subscribe('http.client.request.start', (message) => {
    const request = (message as { request: ClientRequest }).request;
    probe.request(request.method, request.path);
  });

  const client = (await ari.connect(new URL(url).origin, username, password)) as AriClient;
  let active = 0;

  client.on('StasisStart', (event, channel) => {
    probe.event(event);
    active++;
    const digits: string[] = [];
    let stage: 'answering' | 'prompt1' | 'digits' | 'prompt2' | 'leaving' = 'answering';
    let timer: NodeJS.Timeout | undefined;
    const prompt1 = client.Playback();

    const hangup = () => {
      stage = 'leaving';
      channel.hangup({ reason: 'normal' }).catch(fail('hangup'));
    };
    const playPrompt2 = () => {
      clearTimeout(timer);
      stage = 'prompt2';
      const prompt2 = client.Playback();
      prompt2.once('PlaybackFinished', (finished) => {
        probe.event(finished);
        hangup();
      });
      channel.play({ media: PROMPT_2 }, prompt2).catch(fail('play prompt 2'));
    };
    const waitForDigit = () => {
      clearTimeout(timer);
      timer = setTimeout(playPrompt2, DIGIT_TIMEOUT_MS);
    };

    channel.on('ChannelDtmfReceived', (dtmf) => {
      probe.event(dtmf);
      if (stage === 'prompt1') {
        // Barge-in: the key stops prompt 1 and counts.
        prompt1.stop().catch(() => {});
      } else if (stage !== 'digits') return;
      digits.push(dtmf.digit ?? '');
      if (digits.length >= MAX_DIGITS) playPrompt2();
      else {
        stage = 'digits';
        waitForDigit();
      }
    });
    channel.once('StasisEnd', () => {
      clearTimeout(timer);
      active--;
    });
    prompt1.once('PlaybackFinished', (finished) => {
      probe.event(finished);
      if (stage !== 'prompt1') return;
      stage = 'digits';
      waitForDigit();
    });

    channel
      .answer()
      .then(() => {
        stage = 'prompt1';
        return channel.play({ media: PROMPT_1 }, prompt1);
      })
      .catch(fail('answer / play prompt 1'));
  });
  client.on('StasisEnd', (event) => probe.event(event));

  await client.start(IVR_APP);
  client._ws.prependListener('message', () => probe.frameArrived());

  return {
    activeCalls: () => active,
    leftovers: () => {
      let clientListeners = 0;
      for (const name of client.eventNames()) clientListeners += client.listenerCount(name);
      let instanceListeners = 0;
      for (const list of Object.values(client._instanceListeners)) instanceListeners += list.length;
      return { calls: active, clientListeners, instanceListeners };
    },
    errors: () => errors,
    close: async () => client.stop(),
  } satisfies BenchApp;
});
