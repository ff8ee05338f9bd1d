import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/VirtualClock.ts';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { runWithDeadline } from './runWithDeadline.ts';

const what = 'test.op (GET /x)';

describe('runWithDeadline', () => {
  it('aborts the work signal when the clock passes the deadline', async () => {
    const clock = new VirtualClock();
    let seen: AbortSignal | undefined;
    const outcome = runWithDeadline(
      (signal) => {
        seen = signal;
        return new Promise<never>(() => {});
      },
      { clock, timeoutMs: 50, what },
    ).catch((e: unknown) => e);
    await clock.advance(50);
    expect(await outcome).toMatchObject({ code: ErrorCode.TIMEOUT });
    expect(seen?.aborted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('swallows a late failure of work that was already timed out', async () => {
    const clock = new VirtualClock();
    let fail: (e: Error) => void = () => {};
    const outcome = runWithDeadline(() => new Promise<never>((_, reject) => (fail = reject)), {
      clock,
      timeoutMs: 10,
      what,
    }).catch((e: unknown) => e);
    await clock.advance(10);
    fail(new Error('socket closed'));
    expect(await outcome).toMatchObject({ code: ErrorCode.TIMEOUT });
  });

  it('passes RingflowErrors through and wraps anything else as NETWORK with its cause', async () => {
    const clock = new VirtualClock();
    const own = new RingflowError(ErrorCode.CLOSED, 'closed');
    await expect(runWithDeadline(() => Promise.reject(own), { clock, timeoutMs: 0, what })).rejects.toBe(own);
    const cause = new Error('connect ECONNREFUSED 127.0.0.1:9 ?api_key=demo:demo');
    const wrapped = await runWithDeadline(() => Promise.reject(cause), { clock, timeoutMs: 0, what }).catch(
      (e: RingflowError) => e,
    );
    expect(wrapped).toMatchObject({ code: ErrorCode.NETWORK, cause });
    expect(wrapped.message).not.toContain('demo:demo');
  });

  it('turns a synchronous throw of the work into a rejection', async () => {
    const clock = new VirtualClock();
    const outcome = runWithDeadline(
      () => {
        throw new TypeError('bad');
      },
      { clock, timeoutMs: 10, what },
    );
    await expect(outcome).rejects.toMatchObject({ code: ErrorCode.NETWORK });
    expect(clock.pendingTimers).toBe(0);
  });
});
