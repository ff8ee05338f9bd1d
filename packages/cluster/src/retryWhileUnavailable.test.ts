import { JetStreamApiError } from '@nats-io/jetstream';
import { RequestError, TimeoutError } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { isNatsUnavailable, retryWhileUnavailable } from './retryWhileUnavailable.ts';

const named = (name: string) => Object.assign(new Error(name), { name });
const apiError = (err_code: number, code: number) =>
  new JetStreamApiError({ err_code, code, description: 'test' });

describe('isNatsUnavailable', () => {
  it('tells "not now" (a timeout, a 503, JetStream electing) from a refusal', () => {
    expect(isNatsUnavailable(new TimeoutError())).toBe(true);
    expect(isNatsUnavailable(named('JetStreamNotEnabled'))).toBe(true); // the client's 503
    expect(isNatsUnavailable(new RequestError('failed', { cause: new TimeoutError() }))).toBe(true);
    expect(isNatsUnavailable(apiError(10008, 503))).toBe(true);
    expect(isNatsUnavailable(apiError(10071, 400))).toBe(false); // wrong last sequence: a refusal
    expect(isNatsUnavailable(apiError(10059, 404))).toBe(false); // stream not found
    expect(isNatsUnavailable(new Error('permissions violation'))).toBe(false);
    expect(isNatsUnavailable(undefined)).toBe(false);
  });
});

describe('retryWhileUnavailable', () => {
  it('repeats the work while NATS cannot answer, and resolves with its first answer', async () => {
    let tries = 0;
    const answer = await retryWhileUnavailable(async () => {
      if (++tries < 3) throw named('JetStreamNotEnabled');
      return 42;
    }, 5_000);
    expect(answer).toBe(42);
    expect(tries).toBe(3);
  });

  it('throws a refusal at once, and the last "not now" once its bound has passed', async () => {
    let tries = 0;
    const refusal = apiError(10071, 400);
    await expect(
      retryWhileUnavailable(async () => {
        tries++;
        throw refusal;
      }, 5_000),
    ).rejects.toBe(refusal);
    expect(tries).toBe(1);
    await expect(
      retryWhileUnavailable(async () => {
        throw new TimeoutError();
      }, 150),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});
