import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

function varsets(h: Harness, conn: string): Record<string, unknown>[] {
  return (h.events[conn] ?? []).filter((e) => e.type === 'ChannelVarset');
}

/** A call in `ivr`, whose connection subscribes to all: only such a one sees globals' ChannelVarset. */
async function callInApp(): Promise<{ h: Harness; id: string }> {
  const h = createHarness();
  h.connect('app', ['ivr'], true);
  const id = h.sim.driver.placeCall({ app: 'ivr' });
  await h.advance(0);
  return { h, id };
}

describe('GLOBAL() through the channel variable operations', () => {
  it('sets a global, raising the same channel-less ChannelVarset as a global set', async () => {
    const { h, id } = await callInApp();
    const before = varsets(h, 'app').length;
    expect((await h.req('POST', '/asterisk/variable', { variable: 'VIA_ASTERISK', value: 'a' })).status).toBe(
      204,
    );
    const set = await h.req('POST', `/channels/${id}/variable`, {
      variable: 'GLOBAL(VIA_CHANNEL)',
      value: '1',
    });
    expect(set.status).toBe(204);

    // Exactly one event per set: the channel itself sees no ChannelVarset for GLOBAL(...).
    const [viaAsterisk, viaChannel, ...rest] = varsets(h, 'app').slice(before);
    expect(rest).toEqual([]);
    expect(viaChannel).toMatchObject({ variable: 'VIA_CHANNEL', value: '1', application: 'ivr' });
    expect(viaChannel).not.toHaveProperty('channel');
    expect(Object.keys(viaChannel!).sort()).toEqual(Object.keys(viaAsterisk!).sort());

    expect((await h.req('GET', '/asterisk/variable', { variable: 'VIA_CHANNEL' })).body).toEqual({
      value: '1',
    });
    // A global is not a channel variable: the plain name stays unknown on the channel.
    expect((await h.req('GET', `/channels/${id}/variable`, { variable: 'VIA_CHANNEL' })).status).toBe(404);
  });

  it('reads a global, and an unset one as empty (not 404)', async () => {
    const { h, id } = await callInApp();
    await h.req('POST', '/asterisk/variable', { variable: 'COUNT', value: '3' });
    const read = await h.req('GET', `/channels/${id}/variable`, { variable: 'GLOBAL(COUNT)' });
    expect(read).toMatchObject({ status: 200, body: { value: '3' } });
    const unset = await h.req('GET', `/channels/${id}/variable`, { variable: 'GLOBAL(NEVER_SET)' });
    expect(unset).toMatchObject({ status: 200, body: { value: '' } });
    const many = await h.req('GET', `/channels/${id}/variables`, { variables: 'GLOBAL(COUNT)' });
    expect(many).toMatchObject({ status: 200, body: { variables: { 'GLOBAL(COUNT)': '3' } } });
  });

  it('reads back through GLOBAL() what was written through it', async () => {
    const { h, id } = await callInApp();
    await h.req('POST', `/channels/${id}/variable`, { variable: 'global(Mixed_Case)', value: 'v' });
    const read = await h.req('GET', `/channels/${id}/variable`, { variable: 'GLOBAL(Mixed_Case)' });
    expect(read.body).toEqual({ value: 'v' });
  });
});
