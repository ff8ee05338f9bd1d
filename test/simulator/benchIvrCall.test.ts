import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CallStep, runBenchIvrCall } from './benchIvrCall.ts';

/** `trace-<n>-a` is half A (;1, in the application), `trace-<n>-b` half B (;2, in the dialplan). */
function half(id: unknown): string {
  return typeof id !== 'string' ? '-' : id.endsWith('-a') ? 'A' : id.endsWith('-b') ? 'B' : id;
}

/** The fields of the events of this call that tell them apart. */
interface RecordedEvent {
  readonly type: string;
  readonly channel?: { id: string; state: string; dialplan: { app_name: string } };
  readonly peer?: { id: string };
  readonly playback?: { id: string; target_uri: string };
  readonly dialplan_app?: string;
  readonly variable?: string;
  readonly value?: string;
  readonly dialstatus?: string;
  readonly cause?: number;
  readonly cause_txt?: string;
  readonly soft?: boolean;
  readonly digit?: string;
}

/** One line per step: the event type, the half it is about and what tells it apart; or a reply. */
function describeStep(step: CallStep): string {
  if ('request' in step) {
    const [method, target = ''] = step.request.split(' ');
    const path = target
      .split('?')[0]!
      .replace(/trace-\d+-a/g, 'A')
      .replace(/trace-\d+-b/g, 'B');
    return `reply ${method} ${path} ${step.status}`;
  }
  const e = step.event as unknown as RecordedEvent;
  const subject = e.channel?.id ?? e.peer?.id ?? String(e.playback?.target_uri ?? '').replace('channel:', '');
  const detail: Record<string, () => string> = {
    ChannelDialplan: () => String(e.dialplan_app),
    ChannelVarset: () => `${e.variable}=${e.value}`,
    Dial: () => `dialstatus=${e.dialstatus}`,
    ChannelStateChange: () => String(e.channel?.state),
    ChannelHangupRequest: () => `cause=${e.cause}${e.soft ? ' soft' : ''}`,
    ChannelDestroyed: () => `cause=${e.cause} ${e.cause_txt} app=${e.channel?.dialplan.app_name}`,
    ChannelDtmfReceived: () => String(e.digit),
    PlaybackStarted: () => String(e.playback?.id.split('-')[0]),
    PlaybackFinished: () => String(e.playback?.id.split('-')[0]),
  };
  return `${e.type} ${half(subject)} ${detail[e.type]?.() ?? ''}`.trim();
}

/**
 * A play's reply and its PlaybackStarted race on the real server (the reply is built on the HTTP
 * thread with the playback `queued`, the event comes from the channel's thread): the recording
 * has the reply first for one prompt and the event first for the other. Either order is right.
 */
function settleRaces(lines: string[]): string[] {
  const out = [...lines];
  for (let i = 0; i + 1 < out.length; i++) {
    const [x, y] = [out[i]!, out[i + 1]!];
    if (x.startsWith('reply POST /channels/A/play/') && y.startsWith('PlaybackStarted A')) {
      out[i] = y;
      out[i + 1] = x;
    }
  }
  return out;
}

describe('one bench IVR call, as a real server sends it', () => {
  it('gives the application the recorded events, in the recorded order, with each reply where it came', async () => {
    const recorded = readFileSync(new URL('./fixtures/bench-ivr-call.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const l = JSON.parse(line) as { event?: Record<string, unknown>; request?: string; status?: number };
        return l.event ? { event: l.event } : { request: l.request!, status: l.status! };
      });
    const simulated = await runBenchIvrCall();
    expect(settleRaces(simulated.map(describeStep))).toEqual(settleRaces(recorded.map(describeStep)));
    // 22 events for the application's 4 requests (the fifth, the key sent on B, is the caller's).
    expect(simulated.filter((s) => 'event' in s)).toHaveLength(22);
    expect(simulated.filter((s) => 'request' in s && !s.request.includes('/dtmf'))).toHaveLength(4);
  });
});
