import { describe, expect, it } from 'vitest';
import { parseBotMessage, parseRelayMessage } from './textRelayProtocol.ts';

describe('the text relay protocol', () => {
  it('reads the three messages a bot sends', () => {
    expect(parseBotMessage('{"type":"say","text":"Hello"}')).toEqual({ type: 'say', text: 'Hello' });
    expect(parseBotMessage('{"type":"tool","id":"t1","name":"lookup","args":{"order":"12"}}')).toEqual({
      type: 'tool',
      id: 't1',
      name: 'lookup',
      args: { order: '12' },
    });
    expect(parseBotMessage('{"type":"end","result":"handoff","data":{"reason":"asked"},"extra":1}')).toEqual({
      type: 'end',
      result: 'handoff',
      data: { reason: 'asked' },
    });
  });

  it.each([
    ['not json', 'not JSON'],
    ['[1]', 'not an object'],
    ['{"type":"say"}', 'say without text'],
    ['{"type":"tool","name":"x"}', 'tool without id and name'],
    ['{"type":"tool","id":"1","name":"x","args":[1]}', 'args that are not an object'],
    ['{"type":"end","result":"maybe"}', 'expected handoff, done, failed'],
    ['{"type":"end","result":"done","data":"x"}', 'data that is not an object'],
    ['{"type":"dance"}', 'expected say, tool or end'],
  ])('tells what is wrong with %s', (text, problem) => {
    const read = parseBotMessage(text);
    expect('error' in read && read.error).toContain(problem);
  });

  it('lets a bot ignore what it does not know', () => {
    expect(parseRelayMessage('{"type":"caller","text":"hi","final":true}')).toEqual({
      type: 'caller',
      text: 'hi',
      final: true,
    });
    expect(parseRelayMessage('{"type":"news"}')).toBeUndefined();
    expect(parseRelayMessage('nope')).toBeUndefined();
  });
});
