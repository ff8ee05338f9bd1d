import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from './CallRecord.ts';
import { MemoryCallStore } from './CallRecord.ts';
import { RecordWriter } from './RecordWriter.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

function memoryLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('RecordWriter', () => {
  it('a record that cannot be built is logged once and the call goes on: nothing is thrown out of the turn', async () => {
    const { logger, lines } = memoryLogger();
    let builds = 0;
    const writer = new RecordWriter(
      new MemoryCallStore(),
      'c1',
      () => {
        builds++;
        throw new RangeError('Maximum call stack size exceeded');
      },
      () => logger,
    );
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      writer.changed();
      await turn();
      writer.changed();
      await turn();
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(builds).toBe(2);
    expect(lines.filter((l) => l.msg.startsWith('could not write the call record'))).toHaveLength(1);
  });

  it('writes the latest record once per turn, and removes it when the call ended here', async () => {
    const store = new MemoryCallStore();
    let n = 0;
    const record = () => ({ callId: 'c1', writtenAt: ++n }) as unknown as CallRecord;
    const writer = new RecordWriter(store, 'c1', record, () => pino({ level: 'silent' }));
    writer.changed();
    writer.changed();
    await turn();
    expect(n).toBe(1);
    expect(store.size).toBe(1);
    writer.close(true);
    await turn();
    expect(store.size).toBe(0);
  });
});
