import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alawToLinear, linearToAlaw, linearToUlaw, ulawToLinear } from './g711.ts';
import { formatMediaCommand, type MediaCommand, parseMediaCommand } from './mediaCommands.ts';
import { formatMediaEvent, parseMediaEvent } from './mediaEvents.ts';
import { mediaFormat } from './mediaFormats.ts';
import { decodeMediaAudio, encodeMediaAudio } from './pcmAudio.ts';

interface RecordedText {
  readonly case: string;
  readonly t: number;
  readonly direction: 'in' | 'out';
  readonly message: string;
}

const RECORDED: RecordedText[] = readFileSync(
  new URL('./fixtures/media-texts.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as RecordedText);

const formatOf = (text: string) => (text.startsWith('{') ? 'json' : 'plain-text') as 'json' | 'plain-text';

/** Commands the recording shows the server ignoring or refusing: not commands at all. */
const NOT_COMMANDS = new Set(['this is not json', 'NO_SUCH_COMMAND foo', '{"command":"NO_SUCH_COMMAND"}']);

describe('media socket events, against every message the real server sent', () => {
  const received = RECORDED.filter((r) => r.direction === 'in');

  it('reads each one as a known event and writes it back byte for byte', () => {
    expect(received.length).toBeGreaterThan(40);
    for (const { message } of received) {
      const parsed = parseMediaEvent(message);
      expect(parsed.kind, message).toBe('event');
      if (parsed.kind !== 'event') continue;
      expect(formatMediaEvent(parsed.event, formatOf(message)), message).toBe(message);
    }
  });

  it('types the fields: numbers, booleans, texts with spaces and a literal \\n', () => {
    const start = parseMediaEvent(received[0]!.message);
    expect(start).toEqual({
      kind: 'event',
      event: {
        event: 'MEDIA_START',
        connection_id: 'mt-media',
        channel: 'WebSocket/mt-media/0x7fc05c007140',
        channel_id: 'mt-a-ws',
        format: 'ulaw',
        optimal_frame_size: 160,
        ptime: 20,
      },
    });
    const status = received.find((r) => r.message.includes('queue_length:1350'))!;
    expect(parseMediaEvent(status.message)).toMatchObject({
      event: { event: 'STATUS', queue_length: 1350, queue_full: true, bulk_media: false, xoff_level: 900 },
    });
    const error = received.find((r) => r.message.startsWith('ERROR') && r.message.includes('JSON format'))!;
    expect(parseMediaEvent(error.message)).toMatchObject({
      event: {
        event: 'ERROR',
        channel_id: 'mt-a-ws',
        error_text: 'SET_MEDIA_DIRECTION only supports JSON format.\n',
      },
    });
    const jsonStart = received.find((r) => r.case.startsWith('e-') && r.message.includes('MEDIA_START'))!;
    const parsed = parseMediaEvent(jsonStart.message);
    expect(parsed).toMatchObject({ event: { event: 'MEDIA_START', optimal_frame_size: 160 } });
    expect(
      parsed.kind === 'event' && parsed.event.event === 'MEDIA_START' && parsed.event.channel_variables,
    ).toMatchObject({
      MT_CASE: expect.any(String),
    });
    expect(parseMediaEvent('MEDIA_MARK_PROCESSED m1')).toEqual({
      kind: 'event',
      event: { event: 'MEDIA_MARK_PROCESSED', correlation_id: 'm1' },
    });
  });

  it('says what is wrong with text that is not an event, and passes on events it does not know', () => {
    expect(parseMediaEvent('STATUS channel_id:ws1 queue_length:many xon_level:800')).toMatchObject({
      kind: 'malformed',
      reason: 'STATUS: queue_length should be a number, got "many"',
    });
    expect(parseMediaEvent('{"event":"MEDIA_START","connection_id":"x"}')).toMatchObject({
      kind: 'malformed',
      reason: 'MEDIA_START: channel should be a string, got nothing',
    });
    expect(parseMediaEvent('{"event":')).toMatchObject({
      kind: 'malformed',
      reason: expect.stringMatching(/^not JSON/),
    });
    expect(parseMediaEvent('hello there')).toMatchObject({ kind: 'malformed' });
    expect(parseMediaEvent('MEDIA_SOMETHING_NEW a:b')).toEqual({
      kind: 'unknown',
      name: 'MEDIA_SOMETHING_NEW',
      text: 'MEDIA_SOMETHING_NEW a:b',
    });
  });
});

describe('media socket commands, against every command the recorded application sent', () => {
  const sent = RECORDED.filter((r) => r.direction === 'out');

  it('writes each command the server acted on exactly as recorded, and reads it back', () => {
    let checked = 0;
    for (const { message } of sent) {
      const parsed = parseMediaCommand(message, formatOf(message));
      if (NOT_COMMANDS.has(message) || message.length > 128) {
        expect(parsed.kind, message).toBe('ignored');
        continue;
      }
      if (parsed.kind === 'error') continue; // SET_MEDIA_DIRECTION in plain text, 'sideways'
      expect(parsed.kind, message).toBe('command');
      if (parsed.kind !== 'command') continue;
      expect(formatMediaCommand(parsed.command, formatOf(message)), message).toBe(message);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("gives the server's own error texts (what the simulator answers)", () => {
    expect(parseMediaCommand('this is not json', 'json')).toEqual({
      kind: 'error',
      text: 'Unable to parse JSON command',
    });
    expect(parseMediaCommand('SET_MEDIA_DIRECTION out', 'plain-text')).toEqual({
      kind: 'error',
      text: 'SET_MEDIA_DIRECTION only supports JSON format.\n',
    });
    expect(parseMediaCommand('{"command":"SET_MEDIA_DIRECTION","direction":"sideways"}', 'json')).toEqual({
      kind: 'error',
      text: "'sideways' is not a valid direction for SET_MEDIA_DIRECTION.\n",
    });
  });

  it('refuses to write what the server would not take', () => {
    const direction: MediaCommand = { command: 'SET_MEDIA_DIRECTION', direction: 'out' };
    expect(() => formatMediaCommand(direction, 'plain-text')).toThrow(/needs the JSON control format/);
    expect(formatMediaCommand(direction, 'json')).toBe('{"command":"SET_MEDIA_DIRECTION","direction":"out"}');
    expect(() =>
      formatMediaCommand({ command: 'MARK_MEDIA', correlation_id: 'x'.repeat(130) }, 'plain-text'),
    ).toThrow(/ignores control text over 128/);
    expect(() => formatMediaCommand({ command: 'MARK_MEDIA', correlation_id: 'a b' }, 'plain-text')).toThrow(
      /space/,
    );
  });
});

describe('media formats and samples', () => {
  it('frames ulaw and slin16 as recorded (160 and 640 bytes per 20 ms), opus passed through', () => {
    expect(mediaFormat('ulaw')).toMatchObject({ kind: 'framed', frameBytes: 160, sampleRate: 8000 });
    expect(mediaFormat('slin16')).toMatchObject({ kind: 'framed', frameBytes: 640, sampleRate: 16000 });
    expect(mediaFormat('opus')).toEqual({ kind: 'passthrough', name: 'opus' });
    expect(mediaFormat('nonsense')).toBeUndefined();
  });

  it('G.711 round trips within its step, silence is 0xff / 0xd5', () => {
    expect(linearToUlaw(0)).toBe(0xff);
    expect(ulawToLinear(0xff)).toBe(0);
    expect(linearToAlaw(0)).toBe(0xd5);
    for (const sample of [-32768, -20000, -1000, -10, 10, 1000, 20000, 32767]) {
      const step = Math.max(16, Math.abs(sample) / 16);
      expect(Math.abs(ulawToLinear(linearToUlaw(sample)) - sample), `ulaw ${sample}`).toBeLessThanOrEqual(
        step,
      );
      expect(Math.abs(alawToLinear(linearToAlaw(sample)) - sample), `alaw ${sample}`).toBeLessThanOrEqual(
        step,
      );
    }
  });

  it('decodes and encodes slin16 frames little-endian', () => {
    const format = mediaFormat('slin16')!;
    const samples = new Int16Array([1, -2, 300, -32768]);
    const bytes = encodeMediaAudio(format, samples);
    expect([...bytes.subarray(0, 4)]).toEqual([1, 0, 0xfe, 0xff]);
    expect([...decodeMediaAudio(format, bytes)]).toEqual([...samples]);
    expect(() => decodeMediaAudio(mediaFormat('opus')!, bytes)).toThrow(/not PCM or G.711/);
  });
});
