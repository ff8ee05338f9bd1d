import { ErrorCode, HttpError, RingflowError } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { CleanupRetry, cleanupFailure } from './CleanupRetry.ts';

function httpError(status: number): HttpError {
  return new HttpError({
    status,
    operation: 'channels.hangup',
    method: 'DELETE',
    path: '/channels/c1',
    serverMessage: '',
    body: undefined,
  } as ConstructorParameters<typeof HttpError>[0]);
}

describe('CleanupRetry', () => {
  it('doubles the delay up to the cap, jittered within its upper half', () => {
    const low = new CleanupRetry({ attempts: 5, initialDelayMs: 100, maxDelayMs: 300, random: () => 0 });
    const high = new CleanupRetry({ attempts: 5, initialDelayMs: 100, maxDelayMs: 300, random: () => 0.999 });
    expect([2, 3, 4, 5].map((n) => low.delayBefore(n))).toEqual([50, 100, 150, 150]);
    expect([2, 3, 4, 5].map((n) => high.delayBefore(n))).toEqual([100, 200, 300, 300]);
  });

  it('refuses settings that would never attempt or never end, naming the field', () => {
    expect(() => new CleanupRetry({ attempts: 0 })).toThrow(/cleanupRetry\.attempts is 0/);
    expect(() => new CleanupRetry({ attempts: 2.5 })).toThrow(/whole number/);
    expect(() => new CleanupRetry({ initialDelayMs: 10, maxDelayMs: 5 })).toThrow(
      /initialDelayMs <= maxDelayMs/,
    );
  });

  it('retries what may pass later (no reply, 5xx), takes a 404 as done, does not retry a 4xx', () => {
    expect(cleanupFailure(httpError(404))).toBe('gone');
    expect(cleanupFailure(httpError(500))).toBe('retry');
    expect(cleanupFailure(httpError(503))).toBe('retry');
    expect(cleanupFailure(httpError(409))).toBe('refused');
    expect(cleanupFailure(new RingflowError(ErrorCode.TIMEOUT, 'no reply'))).toBe('retry');
    expect(cleanupFailure(new RingflowError(ErrorCode.NETWORK, 'reset'))).toBe('retry');
    expect(cleanupFailure(new RingflowError(ErrorCode.ABORTED, 'stopped'))).toBe('refused');
    expect(cleanupFailure(new Error('bug'))).toBe('refused');
  });
});
