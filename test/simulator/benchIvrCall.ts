import { VirtualClock } from '@ringflow/client';
import { createSimulator } from '@ringflow/simulator';

/** One step of a call as the application sees it: an event, or the reply to one of its requests. */
export type CallStep =
  | { readonly event: Record<string, unknown> }
  | { readonly request: string; readonly status: number };

/** The two halves of the call, as the trace names them (`trace-<n>-a`, `trace-<n>-b`). */
export const HALF_A = 'trace-1-a';
export const HALF_B = 'trace-1-b';

/**
 * One call of the bench IVR on an in-process simulator, driven as the real-server recording
 * `fixtures/bench-ivr-call.jsonl` was: `POST /channels?endpoint=Local/s@stasis-ivr&app=ivr-trace`
 * with both ids; the ;2 half (B) enters demo-app from the dialplan and demo-app answers it; the
 * application answers A, plays a beep, a key is sent on B (heard on A), a second beep, and
 * hangs A up. Returns what the application's connection received, with the replies to its
 * requests where they came (the originate, sent by the recorder, is not among them).
 *
 * Each application acts on an event in a later timer of the clock, never inside its delivery,
 * as one that hears it over a network does.
 */
export async function runBenchIvrCall(): Promise<CallStep[]> {
  const clock = new VirtualClock(Date.UTC(2026, 10, 28, 12, 21, 6, 612));
  const sim = createSimulator({ clock });
  const steps: CallStep[] = [];
  const later = (action: () => void) => clock.setTimeout(action, 0);
  const send = (method: string, path: string, query: Record<string, string> = {}) =>
    void sim.handle({ method, path, query }).then((response) => {
      const q = new URLSearchParams(query).toString();
      steps.push({ request: `${method} ${path}${q ? `?${q}` : ''}`, status: response.status });
      if (method === 'POST' && path.endsWith('/answer'))
        send('POST', `/channels/${HALF_A}/play/pb1-${HALF_A}`, { media: 'sound:beep' });
    });
  sim.connectEvents({ apps: ['demo-app'], subscribeAll: false }, (event) => {
    if (event.type === 'StasisStart')
      later(() => void sim.handle({ method: 'POST', path: `/channels/${HALF_B}/answer`, query: {} }));
  });
  let destroyed = 0;
  sim.connectEvents({ apps: ['ivr-trace'], subscribeAll: false }, (event) => {
    steps.push({ event });
    if (event.type === 'ChannelDestroyed') destroyed++;
    later(() => {
      const playbackId = (event.playback as { id?: string } | undefined)?.id;
      if (event.type === 'StasisStart') send('POST', `/channels/${HALF_A}/answer`);
      else if (event.type === 'PlaybackFinished' && playbackId === `pb1-${HALF_A}`)
        send('POST', `/channels/${HALF_B}/dtmf`, { dtmf: '1' });
      else if (event.type === 'ChannelDtmfReceived')
        send('POST', `/channels/${HALF_A}/play/pb2-${HALF_A}`, { media: 'sound:beep' });
      else if (event.type === 'PlaybackFinished' && playbackId === `pb2-${HALF_A}`)
        send('DELETE', `/channels/${HALF_A}`);
    });
  });
  const originate = await sim.handle({
    method: 'POST',
    path: '/channels',
    query: { endpoint: 'Local/s@stasis-ivr', app: 'ivr-trace', channelId: HALF_A, otherChannelId: HALF_B },
  });
  if (originate.status !== 200) throw new Error(`originate: ${originate.status}`);
  for (let ms = 0; ms < 10_000 && destroyed < 2; ms += 10) await clock.advance(10);
  await clock.advance(1000);
  sim.close();
  return steps;
}
