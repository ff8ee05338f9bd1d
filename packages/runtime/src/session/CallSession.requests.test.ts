import { ErrorCode, type RestClient, RingflowError, type StreamEvent, VirtualClock } from '@ringflow/client';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import { markCallScoped } from '../call/callScopedSignal.ts';
import { CallSession } from './CallSession.ts';
import { SessionRouter } from './SessionRouter.ts';

const ASTERISK_ID = '02:fc:00:00:00:01';

/** A client whose requests never get a reply: they settle only when their signal aborts. */
function hangingClient(seen: (AbortSignal | undefined)[]): RestClient {
  return {
    request: (_operation: string, _params: unknown, options?: { signal?: AbortSignal }) => {
      const signal = options?.signal;
      seen.push(signal);
      return new Promise((_, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  } as unknown as RestClient;
}

/** A session whose call has started (its machine waits forever), and the signals its requests got. */
function startedSession() {
  const clock = new VirtualClock();
  const seen: (AbortSignal | undefined)[] = [];
  const session = new CallSession(
    {
      server: { name: 'pbx-a', asteriskId: ASTERISK_ID },
      client: hangingClient(seen),
      clock,
      router: new SessionRouter(),
      metrics: new RuntimeMetrics(clock),
      logger: pino({ level: 'silent' }),
      pickId: (kind) => `${kind}-1`,
      queue: () => {
        throw new Error('no call queues in this test');
      },
      cleanup: () => {},
      isBeingRemoved: () => false,
    },
    { channelId: 'call-1', direction: 'inbound', machineFor: () => createMachine({}), onEnded: () => {} },
  );
  session.deliver({
    type: 'StasisStart',
    application: 'ivr',
    timestamp: '2026-01-01T00:00:00.000+0000',
    asterisk_id: ASTERISK_ID,
    args: [],
    channel: { id: 'call-1', name: 'PJSIP/call-1', state: 'Up' },
  } as unknown as StreamEvent);
  const call = session.call;
  if (!call) throw new Error('the call did not start');
  return { session, call, seen };
}

describe('CallSession requests with a signal of their own', () => {
  it('are cancelled when the call ends, with the call-ended reason', async () => {
    const { session, call, seen } = startedSession();
    const step = new AbortController();
    const pending = call.request('channels.ring', { channelId: 'call-1' }, { signal: step.signal });
    session.end('failed');
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RingflowError);
    expect((error as RingflowError).code).toBe(ErrorCode.ABORTED);
    expect(seen[0]?.aborted).toBe(true);
    expect(step.signal.aborted).toBe(false);
    expect(session.counters().pendingRequests).toBe(0);
  });

  it('are cancelled by their own signal, with its reason, and the call goes on', async () => {
    const { session, call } = startedSession();
    const step = new AbortController();
    const pending = call.request('channels.ring', { channelId: 'call-1' }, { signal: step.signal });
    const reason = new Error('state left');
    step.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(session.ended).toBe(false);
    expect(session.counters().pendingRequests).toBe(0);
    session.end('completed');
  });

  it("use a step's signal of this call's machine as is (stopping the machine aborts it)", async () => {
    const { session, call, seen } = startedSession();
    const step = new AbortController();
    markCallScoped(step.signal, call);
    const pending = call.request('channels.ring', { channelId: 'call-1' }, { signal: step.signal });
    expect(seen[0]).toBe(step.signal);
    step.abort(new Error('state left'));
    await expect(pending).rejects.toThrow('state left');
    session.end('completed');
  });

  it('use the call signal as is when given it', async () => {
    const { session, call, seen } = startedSession();
    const pending = call.request('channels.ring', { channelId: 'call-1' }, { signal: call.signal });
    expect(seen[0]).toBe(call.signal);
    session.end('failed');
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ABORTED });
  });
});

describe('CallSession requests without a signal', () => {
  it('are sent without one and not cancelled when the call ends (that would close a pooled connection); they stay counted until settled', async () => {
    const { session, call, seen } = startedSession();
    void call.request('channels.ring', { channelId: 'call-1' }).catch(() => {});
    expect(seen).toEqual([undefined]);
    session.end('completed');
    expect(session.counters().pendingRequests).toBe(1);
  });
});
