import { describe, expect, it } from 'vitest';
import { parseCallerId, parseFunctionName, readChannelFunction } from './channelFunctions.ts';
import { SimChannel } from './SimChannel.ts';

const NO_GLOBALS = { globals: new Map<string, string>() };

function channel(): SimChannel {
  const ch = new SimChannel({
    id: 'c1',
    name: 'PJSIP/alice-00000000',
    technology: 'PJSIP',
    endpointKey: 'PJSIP/alice',
    deviceName: 'PJSIP/alice',
    creationtime: '2026-11-22T03:47:11.718+0000',
    state: 'Up',
    context: 'default',
    exten: '100',
  });
  ch.callerName = 'Alice';
  ch.callerNumber = '201';
  return ch;
}

describe('channel functions', () => {
  it('recognises NAME(args) where a variable name goes', () => {
    expect(parseFunctionName('CALLERID(num)')).toEqual({ name: 'CALLERID', args: 'num' });
    expect(parseFunctionName('talk_detect(set)')).toEqual({ name: 'TALK_DETECT', args: 'set' });
    expect(parseFunctionName('PLAIN_VAR')).toBeUndefined();
  });

  it('parses caller ids written the dialplan way', () => {
    expect(parseCallerId('Oracle <1000>')).toEqual({ name: 'Oracle', number: '1000' });
    expect(parseCallerId('"Big Corp" <+33123>')).toEqual({ name: 'Big Corp', number: '+33123' });
    expect(parseCallerId('5551234')).toEqual({ name: '', number: '5551234' });
  });

  it('reads what the simulator knows and nothing else (unknown functions are undefined: 500 on the interface)', () => {
    const ch = channel();
    expect(readChannelFunction(NO_GLOBALS, ch, 'CALLERID', 'num')).toBe('201');
    expect(readChannelFunction(NO_GLOBALS, ch, 'CALLERID', 'all')).toBe('"Alice" <201>');
    expect(readChannelFunction(NO_GLOBALS, ch, 'CHANNEL', 'language')).toBe('en');
    expect(readChannelFunction(NO_GLOBALS, ch, 'NOSUCHFUNC', 'x')).toBeUndefined();
  });
});
