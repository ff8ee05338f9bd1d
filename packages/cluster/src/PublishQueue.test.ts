import type { PubAck } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { PublishQueue } from './PublishQueue.ts';

/** A JetStream client that records the publishes it is handed, each batch apart. */
function recordingClient() {
  const handed: string[][] = [[]];
  const answers = new Map<string, { resolve: (ack: PubAck) => void; reject: (e: unknown) => void }>();
  return {
    handed,
    answers,
    js: {
      publish: (subject: string, data?: unknown) => {
        if (subject === 'throws') throw new Error('bad subject');
        handed.at(-1)!.push(`${subject} ${String(data)}`);
        return new Promise<PubAck>((resolve, reject) => answers.set(subject, { resolve, reject }));
      },
    },
  };
}

const ack = (seq: number) => ({ stream: 's', seq, duplicate: false, domain: '' }) as PubAck;

describe('PublishQueue', () => {
  it("hands a turn's publishes to the client together, after the turn, in the order asked; each gets its own answer", async () => {
    const client = recordingClient();
    let run: (() => void) | undefined;
    const queue = new PublishQueue(client.js as never, (r) => {
      run = r;
    });
    const first = queue.publish('e.1', 'one', { msgID: 'x' });
    const second = queue.publish('e.2', 'two');
    const third = queue.publish('e.3', 'three');
    expect(client.handed).toEqual([[]]); // nothing before the turn ends
    expect(queue.waiting).toBe(3);
    run!();
    expect(client.handed).toEqual([['e.1 one', 'e.2 two', 'e.3 three']]);
    expect(queue.waiting).toBe(0);
    client.answers.get('e.2')!.reject(new Error('no stream'));
    client.answers.get('e.1')!.resolve(ack(7));
    client.answers.get('e.3')!.resolve(ack(8));
    expect(await first).toEqual(ack(7));
    await expect(second).rejects.toThrow('no stream');
    expect(await third).toEqual(ack(8));

    // The next turn's publishes are the next batch.
    client.handed.push([]);
    const fourth = queue.publish('e.4', 'four');
    run!();
    expect(client.handed.at(-1)).toEqual(['e.4 four']);
    client.answers.get('e.4')!.resolve(ack(9));
    expect(await fourth).toEqual(ack(9));
  });

  it('a publish the client refuses at once fails alone; by default the batch goes after the I/O of the turn', async () => {
    const client = recordingClient();
    const queue = new PublishQueue(client.js as never);
    const bad = queue.publish('throws', 'x').then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    const good = queue.publish('e.5', 'five');
    await new Promise((r) => setImmediate(r));
    expect(client.handed).toEqual([['e.5 five']]);
    expect((await bad)?.message).toBe('bad subject');
    client.answers.get('e.5')!.resolve(ack(1));
    expect(await good).toEqual(ack(1));
  });
});
