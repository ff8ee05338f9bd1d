import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

const DIALPLAN = `
[bc]
exten => offer,1,Set(TIER=gold)
 same => n,StasisBroadcast(2000,^ivr-,sales:high,yes)
 same => n,UserEvent(After,status: \${STASISSTATUS})
 same => n,Hangup()
exten => quick,1,StasisBroadcast()
 same => n,UserEvent(After,status: \${STASISSTATUS})
 same => n,Hangup()
`;

function types(h: Harness, conn: string): string[] {
  return (h.events[conn] ?? []).map((e) => String(e.type));
}

function broadcasts(h: Harness, conn: string): Record<string, unknown>[] {
  return (h.events[conn] ?? []).filter((e) => e.type === 'CallBroadcast');
}

function afterStatus(h: Harness): string | undefined {
  const after = (h.events.watch ?? []).find((e) => e.type === 'ChannelUserevent' && e.eventname === 'After');
  return (after?.userevent as Record<string, string> | undefined)?.status;
}

describe('StasisBroadcast', () => {
  it('offers a call to the matching applications; the first claim wins, the second gets 409', async () => {
    const h = createHarness({ dialplan: { text: DIALPLAN } });
    h.connect('a', ['ivr-a'], false);
    h.connect('b', ['ivr-b'], false);
    h.connect('other', ['billing'], false);
    h.connect('watch', ['watch'], true);
    const id = h.sim.driver.placeCall({ context: 'bc', to: 'offer', from: '5551234' });
    await h.advance(0);
    expect(broadcasts(h, 'other')).toEqual([]);
    const [offer] = broadcasts(h, 'a');
    expect(offer).toMatchObject({
      application: 'ivr-a',
      caller: '5551234',
      called: 'offer',
      channel: { id },
      variables: { TIER: 'gold' },
    });
    expect(broadcasts(h, 'b')).toHaveLength(1);

    const won = await h.req('POST', '/events/claim', { channelId: id, application: 'ivr-b' });
    const lost = await h.req('POST', '/events/claim', { channelId: id, application: 'ivr-a' });
    expect(won.status).toBe(204);
    expect(lost.status).toBe(409);
    expect(lost.body).toEqual({ message: 'Channel has already been claimed by another application' });
    await h.advance(0);
    // The winner gets the call with the colon-separated arguments; both were told who won.
    const start = (h.events.b ?? []).find((e) => e.type === 'StasisStart');
    expect(start).toMatchObject({ application: 'ivr-b', args: ['sales', 'high'], channel: { id } });
    expect(types(h, 'a')).not.toContain('StasisStart');
    expect((h.events.a ?? []).find((e) => e.type === 'CallClaimed')).toMatchObject({ winner_app: 'ivr-b' });
    const variable = await h.req('GET', '/channels/' + id + '/variable', { variable: 'BROADCAST_WINNER' });
    expect(variable.body).toEqual({ value: 'ivr-b' });

    // While the winner has the call a late claim is 409; once its Stasis session ended, 404.
    expect((await h.req('POST', '/events/claim', { channelId: id, application: 'ivr-a' })).status).toBe(409);
    expect((await h.req('POST', `/channels/${id}/continue`)).status).toBe(204);
    await h.advance(0);
    expect(afterStatus(h)).toBe('SUCCESS');
    expect((await h.req('POST', '/events/claim', { channelId: id, application: 'ivr-a' })).status).toBe(404);
  });

  it('goes on in the dialplan with STASISSTATUS=TIMEOUT when nobody claims the call in time (default 500 ms)', async () => {
    const h = createHarness({ dialplan: { text: DIALPLAN } });
    h.connect('a', ['ivr-a'], false);
    h.connect('watch', ['watch'], true);
    const id = h.sim.driver.placeCall({ context: 'bc', to: 'quick' });
    await h.advance(0);
    expect(broadcasts(h, 'a')).toHaveLength(1);
    await h.advance(499);
    expect(afterStatus(h)).toBeUndefined();
    await h.advance(1);
    expect(afterStatus(h)).toBe('TIMEOUT');
    expect((await h.req('POST', '/events/claim', { channelId: id, application: 'ivr-a' })).status).toBe(404);
  });

  it('answers 404 for a channel that is not on offer', async () => {
    const h = createHarness();
    h.connect('a', ['ivr-a'], false);
    const id = h.sim.driver.placeCall({ app: 'ivr-a' });
    await h.advance(0);
    const claim = await h.req('POST', '/events/claim', { channelId: id, application: 'ivr-a' });
    expect(claim.status).toBe(404);
    expect(claim.body).toEqual({ message: 'Channel not found or not in broadcast state' });
  });
});
