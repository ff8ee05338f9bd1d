import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.ts';
import { MalformedFrameError } from './MalformedFrameError.ts';
import { parseEventFrame } from './parseEventFrame.ts';

describe('parseEventFrame', () => {
  it('parses JSON text and keeps every field, known or not', () => {
    const r = parseEventFrame('{"type":"StasisEnd","channel":{"id":"c1"},"future_flag":true}');
    expect(r).toEqual({ ok: true, event: { type: 'StasisEnd', channel: { id: 'c1' }, future_flag: true } });
  });

  it('takes objects from in-process transports as they are, without copying', () => {
    const event = { type: 'SomethingNew', x: 1 };
    const r = parseEventFrame(event);
    expect(r.ok && r.event).toBe(event);
  });

  it.each([
    ['not json', 'not-json'],
    ['[1,2]', 'not-an-object'],
    ['"StasisStart"', 'not-an-object'],
    ['null', 'not-an-object'],
    ['{"kind":"StasisStart"}', 'missing-type'],
    ['{"type":42}', 'missing-type'],
    ['{"type":""}', 'missing-type'],
  ])('rejects %s as %s, with a PROTOCOL error showing the frame', (frame, reason) => {
    const r = parseEventFrame(frame);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(MalformedFrameError);
    expect(r.error.code).toBe(ErrorCode.PROTOCOL);
    expect(r.error.reason).toBe(reason);
    expect(r.error.frame).toBe(frame);
    expect(r.error.message).toContain(frame);
  });

  it('shortens huge bad frames in the error', () => {
    const r = parseEventFrame(`{"no_type":"${'x'.repeat(10_000)}"}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.frame.length).toBeLessThan(600);
  });
});
