import { describe, expect, it } from 'vitest';
import { applicationReadiness } from './applicationReadiness.ts';

const open = { server: 'pbx', state: { kind: 'open' } };

describe('applicationReadiness', () => {
  it('is ready with every event stream open and nothing being recovered', () => {
    expect(applicationReadiness({ connections: () => [open], recoveringCalls: 0 })).toEqual({
      ready: true,
      reasons: [],
    });
  });

  it('says how many calls are being checked with the server after a gap', () => {
    expect(applicationReadiness({ connections: () => [open], recoveringCalls: 6 })).toEqual({
      ready: false,
      reasons: ['recovering 6 calls after an event stream gap'],
    });
  });

  it('a process that only listens is ready once it listens, before any server dialled it', () => {
    expect(applicationReadiness({ connections: () => [] })).toEqual({
      ready: false,
      reasons: ['no server connected yet'],
    });
    expect(
      applicationReadiness({ connections: () => [], listening: { url: 'ws://127.0.0.1:8765/' } }),
    ).toEqual({ ready: true, reasons: [] });
  });
});
