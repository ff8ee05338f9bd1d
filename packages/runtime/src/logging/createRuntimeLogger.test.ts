import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createRuntimeLogger, safeUrl } from './createRuntimeLogger.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, stream };
}

describe('createRuntimeLogger', () => {
  it('never writes credentials, on its own logger or on one the user passes', () => {
    const { lines, stream } = capture();
    const own = createRuntimeLogger(pino({}, stream));
    own.info({ server: { url: 'http://pbx', username: 'asterisk', password: 's3cret' } }, 'connecting');
    own.child({ call: 'c1' }).info({ headers: { authorization: 'Basic YTpi' } }, 'request');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('YTpi');
    expect(text).not.toContain('"asterisk"');
    expect(lines[1]).toMatchObject({ call: 'c1', headers: { authorization: '[redacted]' } });
  });

  it('strips user info and api_key from URLs', () => {
    expect(safeUrl('http://u:p@pbx:8088/ari?api_key=u:p')).toBe('http://pbx:8088/ari');
    expect(safeUrl('ws://pbx/ari/events?app=a&api_key=x:y')).toBe('ws://pbx/ari/events?app=a');
  });
});
