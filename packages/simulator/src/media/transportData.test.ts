import { describe, expect, it } from 'vitest';
import { parseTransportData } from './transportData.ts';

describe('parseTransportData', () => {
  it('reads the options the recording used', () => {
    expect(parseTransportData('v(call=a1,lang=en)')).toEqual({
      uriParams: [
        ['call', 'a1'],
        ['lang', 'en'],
      ],
      controlFormat: undefined,
      noAutoAnswer: false,
      passthrough: false,
    });
    expect(parseTransportData('f(json)')?.controlFormat).toBe('json');
    expect(parseTransportData('n')?.noAutoAnswer).toBe(true);
    expect(parseTransportData('p')?.passthrough).toBe(true);
    expect(parseTransportData(undefined)?.uriParams).toEqual([]);
  });

  it('refuses what the real server could not parse (it answers 500)', () => {
    expect(parseTransportData('z(nonsense')).toBeUndefined();
    expect(parseTransportData('f(xml)')).toBeUndefined();
    expect(parseTransportData('v(a=b')).toBeUndefined();
  });
});
