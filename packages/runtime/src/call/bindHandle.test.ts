import type { ChannelHandle } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { bindHandle, type SendOperation } from './bindHandle.ts';

describe('bindHandle', () => {
  const recorder = () => {
    const sent: [string, Readonly<Record<string, unknown>>][] = [];
    const send: SendOperation = async (operation, params) => {
      sent.push([operation, params]);
      return undefined;
    };
    return { sent, send };
  };

  it('sends each operation with the bound ids, which win over params of the same name', async () => {
    const { sent, send } = recorder();
    const channel = bindHandle('channel', { channelId: 'c1' }, send) as ChannelHandle;
    await channel.answer();
    await channel.hangup({ reason: 'busy', channelId: 'other' } as never);
    expect(sent).toEqual([
      ['channels.answer', { channelId: 'c1' }],
      ['channels.hangup', { reason: 'busy', channelId: 'c1' }],
    ]);
  });

  it('shares its methods between handles of a kind, each handle keeping its own ids and sender', async () => {
    const a = recorder();
    const b = recorder();
    const one = bindHandle('channel', { channelId: 'c1' }, a.send) as ChannelHandle;
    const two = bindHandle('channel', { channelId: 'c2' }, b.send) as ChannelHandle;
    expect(one.answer).toBe(two.answer);
    await two.answer();
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual([['channels.answer', { channelId: 'c2' }]]);
  });

  it('shows only its ids as own keys (spreads and logs as before)', () => {
    const channel = bindHandle('channel', { channelId: 'c1' }, recorder().send);
    expect({ ...channel }).toEqual({ channelId: 'c1' });
    expect(JSON.stringify(channel)).toBe('{"channelId":"c1"}');
  });
});
