import { describe, expect, it } from 'vitest';
import { bindResources } from './bindResources.ts';

describe('bindResources', () => {
  it('sends every resource operation through the given send, by operation key', async () => {
    const sent: unknown[] = [];
    const api = bindResources(async (operation, params, options) => {
      sent.push([operation, params, options]);
      return { ok: operation };
    });
    await expect(api.channels.answer({ channelId: 'c1' })).resolves.toEqual({ ok: 'channels.answer' });
    await api.bridges.addChannel({ bridgeId: 'b1', channel: ['c1'] }, { timeoutMs: 5 });
    await api.core.ping();
    expect(sent).toEqual([
      ['channels.answer', { channelId: 'c1' }, undefined],
      ['bridges.addChannel', { bridgeId: 'b1', channel: ['c1'] }, { timeoutMs: 5 }],
      ['asterisk.ping', {}, undefined],
    ]);
  });

  it('binds a resource once per call and shares methods between calls', () => {
    const a = bindResources(async () => undefined);
    const b = bindResources(async () => undefined);
    expect(a.channels).toBe(a.channels);
    expect(a.channels).not.toBe(b.channels);
    expect(a.channels.play).toBe(b.channels.play);
    expect(Object.keys(a.channels)).toEqual([]); // the session's send stays out of sight
  });

  it('leaves the WebSocket upgrade to the event stream', () => {
    const api = bindResources(async () => undefined);
    expect('eventWebsocket' in api.events).toBe(false);
    expect(typeof api.events.userEvent).toBe('function');
  });
});
