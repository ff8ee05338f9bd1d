import { JetStreamApiError, type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startNatsServer } from '../../../test/cluster/startNatsServer.ts';
import { EVENTS_SUBJECTS } from './EventSubjects.ts';
import { ensureEventsStream } from './EventsStream.ts';

/**
 * The events stream made when missing: a stream already there keeps its settings, and a
 * difference from those asked is said; a failure to make it is thrown unless another process
 * made it meanwhile as asked.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MAX_AGE_MS = 10 * 60 * 1000;

describe('ensureEventsStream on a NATS server', () => {
  it('makes the stream once; asked again with other settings, it says which differ and keeps its own', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const nc = await connect({ servers: nats.url });
    cleanups.push(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const warnings: string[] = [];
    const warn = (m: string) => void warnings.push(m);
    expect(await ensureEventsStream(jsm, MAX_AGE_MS, 1, warn)).toBe(true);
    expect(await ensureEventsStream(jsm, MAX_AGE_MS, 1, warn)).toBe(false);
    expect(warnings).toEqual([]);
    // `--cluster-replicas 3` on a stream made with 1 replica, and another max age.
    expect(await ensureEventsStream(jsm, 60_000, 3, warn)).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('replicas 1 (wanted 3)');
    expect(warnings[0]).toContain('max age 600000 ms (wanted 60000 ms)');
  }, 30_000);
});

/** A JetStream manager whose stream `info` answers from `stream` and whose `add` fails with `addError`. */
function managerWith(stream: () => Record<string, unknown> | undefined, addError: Error): JetStreamManager {
  const notFound = new JetStreamApiError({ err_code: 10059, code: 404, description: 'stream not found' });
  let infos = 0;
  return {
    streams: {
      info: async () => {
        infos++;
        // The first info finds nothing (so the stream is made); later ones see `stream`.
        const config = infos === 1 ? undefined : stream();
        if (!config) throw notFound;
        return { config, state: {} };
      },
      add: async () => {
        throw addError;
      },
    },
  } as unknown as JetStreamManager;
}

const asked = (replicas: number) => ({
  subjects: [EVENTS_SUBJECTS],
  retention: 'limits',
  storage: 'file',
  max_age: MAX_AGE_MS * 1_000_000,
  duplicate_window: 2 * 60 * 1000 * 1_000_000,
  num_replicas: replicas,
});

describe('ensureEventsStream: making the stream fails', () => {
  const refused = new JetStreamApiError({
    err_code: 10074,
    code: 500,
    description: 'insufficient resources',
  });

  it('another process made it meanwhile as asked: no error', async () => {
    expect(
      await ensureEventsStream(
        managerWith(() => asked(3), refused),
        MAX_AGE_MS,
        3,
      ),
    ).toBe(false);
  });

  it('the stream is there but not as asked: the failure is thrown', async () => {
    await expect(
      ensureEventsStream(
        managerWith(() => asked(1), refused),
        MAX_AGE_MS,
        3,
      ),
    ).rejects.toBe(refused);
  });

  it('the stream is not there: the failure is thrown', async () => {
    await expect(
      ensureEventsStream(
        managerWith(() => undefined, refused),
        MAX_AGE_MS,
        3,
      ),
    ).rejects.toBe(refused);
  });
});
