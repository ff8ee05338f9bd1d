import { describe, expect, it } from 'vitest';
import { isConsoleRequest, readRequest } from './consoleRequests.ts';

describe('readRequest', () => {
  it('reads each body into its type', () => {
    expect(readRequest('call', { flow: 'desk', extension: '', from: '555' })).toEqual({
      flow: 'desk',
      from: '555',
    });
    expect(readRequest('dtmf', { call: 'call-1', digits: '1#' })).toEqual({ call: 'call-1', digits: '1#' });
    expect(readRequest('talk', { call: 'call-1', talking: true })).toEqual({ call: 'call-1', talking: true });
    expect(readRequest('talk', { call: 'call-1', talking: 'false' })).toEqual({
      call: 'call-1',
      talking: false,
    });
    expect(readRequest('scenarios/run', { file: 'a.test.yaml' })).toEqual({ file: 'a.test.yaml' });
    expect(readRequest('say', { call: 'call-1', text: ' where is my order ' })).toEqual({
      call: 'call-1',
      text: 'where is my order',
    });
  });

  it('refuses a missing or mistyped field, saying which', () => {
    expect(() => readRequest('hangup', {})).toThrow('missing field "call"');
    expect(() => readRequest('dtmf', { call: 'c', digits: 'x' })).toThrow(/digits: expected keys/);
    expect(() => readRequest('talk', { call: 'c', talking: 'yes' })).toThrow(
      /talking: expected true or false/,
    );
    expect(() => readRequest('save', { call: 7 })).toThrow('call: expected a string, got 7');
    expect(() => readRequest('save', [])).toThrow('expected a JSON object');
    expect(() => readRequest('say', { call: 'c' })).toThrow('missing field "text"');
    expect(() => readRequest('say', { call: 'c', text: '   ' })).toThrow(
      'text: give the words the caller says',
    );
    expect(() => readRequest('say', { call: 'c', text: 'a'.repeat(501) })).toThrow(
      'text: at most 500 characters, got 501',
    );
  });

  it('knows the console paths only', () => {
    expect(isConsoleRequest('dtmf')).toBe(true);
    expect(isConsoleRequest('toString')).toBe(false);
    expect(isConsoleRequest('nope')).toBe(false);
  });
});
