import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WriteCoalescer } from './WriteCoalescer.ts';

/** A socket that records each system-call-sized write: one entry per `writev` or `write`. */
class RecordingSocket extends Duplex {
  readonly writes: string[][] = [];
  override _read(): void {}
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push([String(chunk)]);
    done();
  }
  override _writev(chunks: { chunk: Buffer }[], done: () => void): void {
    this.writes.push(chunks.map((c) => String(c.chunk)));
    done();
  }
}

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('WriteCoalescer', () => {
  it('sends the frames of one turn in one write, in order, at the end of the turn', async () => {
    const coalescer = new WriteCoalescer();
    const socket = new RecordingSocket();
    for (const frame of ['a', 'b', 'c']) {
      coalescer.holdEvents(socket);
      socket.write(frame);
    }
    expect(socket.writes).toEqual([]);
    await endOfTurn();
    expect(socket.writes).toEqual([['a', 'b', 'c']]);

    coalescer.holdEvents(socket);
    socket.write('d');
    await endOfTurn();
    expect(socket.writes).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('writes a deferred reply after the event frames held before it, on every socket', async () => {
    const coalescer = new WriteCoalescer();
    const events = [new RecordingSocket(), new RecordingSocket()];
    const seenByReply: string[][][] = [];
    coalescer.holdEvents(events[0]!);
    events[0]!.write('StasisStart');
    coalescer.deferReply(() => seenByReply.push(events.map((s) => s.writes.flat())));
    coalescer.holdEvents(events[1]!);
    events[1]!.write('ChannelVarset');
    expect(seenByReply).toEqual([]);
    await endOfTurn();
    expect(seenByReply).toEqual([[['StasisStart'], ['ChannelVarset']]]);
  });

  it('flush sends everything held at once', () => {
    const coalescer = new WriteCoalescer();
    const socket = new RecordingSocket();
    let replied = false;
    coalescer.holdEvents(socket);
    socket.write('a');
    coalescer.deferReply(() => {
      replied = true;
    });
    coalescer.flush();
    expect(socket.writes).toEqual([['a']]);
    expect(replied).toBe(true);
  });
});
