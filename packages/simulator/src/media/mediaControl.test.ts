import { describe, expect, it } from 'vitest';
import { formatError, formatEvent, parseControl } from './mediaControl.ts';

describe('media control messages', () => {
  it('reads plain-text and JSON commands', () => {
    expect(parseControl('MARK_MEDIA m1', 'plain-text')).toEqual({
      kind: 'command',
      value: { command: 'MARK_MEDIA', id: 'm1' },
    });
    expect(parseControl('{"command":"STOP_MEDIA_BUFFERING","correlation_id":"buf1"}', 'json')).toEqual({
      kind: 'command',
      value: { command: 'STOP_MEDIA_BUFFERING', id: 'buf1' },
    });
    expect(parseControl('{"command":"SET_MEDIA_DIRECTION","direction":"out"}', 'json')).toEqual({
      kind: 'command',
      value: { command: 'SET_MEDIA_DIRECTION', direction: 'out' },
    });
  });

  it('ignores unknown commands and text over 128 bytes, as the real server does (no reply)', () => {
    expect(parseControl('NO_SUCH_COMMAND foo', 'plain-text')).toEqual({ kind: 'ignored' });
    expect(parseControl('{"command":"NO_SUCH_COMMAND"}', 'json')).toEqual({ kind: 'ignored' });
    expect(parseControl(`MARK_MEDIA ${'x'.repeat(130)}`, 'plain-text')).toEqual({ kind: 'ignored' });
  });

  it('reports the recorded errors', () => {
    expect(parseControl('this is not json', 'json')).toEqual({
      kind: 'error',
      text: 'Unable to parse JSON command',
    });
    expect(parseControl('SET_MEDIA_DIRECTION out', 'plain-text')).toEqual({
      kind: 'error',
      text: 'SET_MEDIA_DIRECTION only supports JSON format.\n',
    });
    expect(formatError('plain-text', 'ws1', 'x')).toBe('ERROR channel_id:ws1 error_text:x');
    expect(formatEvent('json', 'DTMF_END', 'ws1', { digit: '5' })).toBe(
      '{"event":"DTMF_END","channel_id":"ws1","digit":"5"}',
    );
  });
});
