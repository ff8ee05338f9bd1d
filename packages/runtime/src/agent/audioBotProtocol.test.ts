import { describe, expect, it } from 'vitest';
import { audioMessageProblem, parseAudioBotMessage, parseAudioRelayMessage } from './audioBotProtocol.ts';

describe('the audio bot protocol', () => {
  it("reads a bot's control messages, the words shared with the text relay included", () => {
    expect(parseAudioBotMessage('{"type":"clear"}')).toEqual({ type: 'clear' });
    expect(parseAudioBotMessage('{"type":"mark","name":"greeting"}')).toEqual({
      type: 'mark',
      name: 'greeting',
    });
    expect(parseAudioBotMessage('{"type":"tool","id":"t1","name":"callerNumber"}')).toEqual({
      type: 'tool',
      id: 't1',
      name: 'callerNumber',
    });
    expect(parseAudioBotMessage('{"type":"end","result":"handoff","data":{"reason":"asked"}}')).toEqual({
      type: 'end',
      result: 'handoff',
      data: { reason: 'asked' },
    });
  });

  it('says what is wrong with a message that breaks it', () => {
    expect(parseAudioBotMessage('{"type":"say","text":"hi"}')).toEqual({
      error: expect.stringMatching(/say, a word of the text relay.*protocol: text/),
    });
    expect(parseAudioBotMessage('{"type":"mark"}')).toEqual({
      error: 'the bot sent mark without a name (a string)',
    });
    expect(parseAudioBotMessage('{"type":"end","result":"maybe"}')).toEqual({
      error: 'the bot ended with result "maybe": expected handoff, done, failed',
    });
    expect(parseAudioBotMessage('{"type":"dance"}')).toEqual({
      error: 'the bot sent a message of type "dance": expected mark, clear, tool or end',
    });
    expect(parseAudioBotMessage('not json')).toEqual({
      error: 'the bot sent text that is not JSON: not json',
    });
    expect(parseAudioBotMessage('[1]')).toEqual({ error: 'the bot sent JSON that is not an object' });
  });

  it("checks the bot's audio: whole samples, at most 65535 bytes a message", () => {
    expect(audioMessageProblem(new Uint8Array(640))).toBeUndefined();
    expect(audioMessageProblem(new Uint8Array(65_534))).toBeUndefined();
    expect(audioMessageProblem(new Uint8Array(641))).toMatch(/whole samples of 2 bytes/);
    expect(audioMessageProblem(new Uint8Array(65_536))).toMatch(/at most 65535/);
  });

  it("reads ringflow's messages for bots, ignoring what it does not know", () => {
    expect(parseAudioRelayMessage('{"type":"mark","name":"m","played":false}')).toEqual({
      type: 'mark',
      name: 'm',
      played: false,
    });
    expect(parseAudioRelayMessage('{"type":"caller","text":"hi"}')).toBeUndefined();
    expect(parseAudioRelayMessage('nope')).toBeUndefined();
  });
});
