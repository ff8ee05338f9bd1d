import { parseStasisAppData } from '@ringflow/runtime';
import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/** Arguments with every character the server's argument splitter treats specially. */
const ARGS = ['first', 'with,comma', 'back\\slash', 'q"uote', 'par(en', 'br]acket'];
/** The same arguments as `appArgs` text, written the way the server's `Stasis()` splits them back. */
const APP_ARGS = 'first,"with,comma",back\\\\slash,q\\"uote,par\\(en,br\\]acket';

interface Snapshot {
  id: string;
  dialplan: { app_name: string; app_data: string };
}

function stasisStart(h: Harness, conn: string, channelId: string): { args: unknown; channel: Snapshot } {
  const start = (h.events[conn] ?? []).find(
    (e) => e.type === 'StasisStart' && (e.channel as Snapshot).id === channelId,
  );
  if (!start) throw new Error(`no StasisStart for ${channelId}`);
  return start as unknown as { args: unknown; channel: Snapshot };
}

/** The StasisStart args equal what the runtime reads back from the snapshot, in the event and from GET. */
async function expectAppDataMatches(h: Harness, conn: string, channelId: string, app: string): Promise<void> {
  const start = stasisStart(h, conn, channelId);
  expect(start.args).toEqual(ARGS);
  expect(parseStasisAppData(start.channel.dialplan)).toEqual({ app, args: ARGS });
  const listed = await h.req('GET', `/channels/${channelId}`);
  const snapshot = listed.body as Snapshot;
  expect(snapshot.dialplan.app_name).toBe('Stasis');
  expect(parseStasisAppData(snapshot.dialplan)).toEqual({ app, args: ARGS });
}

describe('Stasis app_data in channel snapshots', () => {
  it('escapes a driver-placed call’s arguments so the data splits back into them', async () => {
    const h = createHarness();
    h.connect('app', ['ivr'], false);
    const id = h.sim.driver.placeCall({ app: 'ivr', args: ARGS });
    await h.advance(0);
    await expectAppDataMatches(h, 'app', id, 'ivr');
    // Each special character is made literal with a backslash, as a dialplan writer would.
    expect(stasisStart(h, 'app', id).channel.dialplan.app_data).toBe(
      'ivr,first,with\\,comma,back\\\\slash,q\\"uote,par\\(en,br\\]acket',
    );
  });

  it('splits an originate’s appArgs as Stasis() does and shows the text as given', async () => {
    const h = createHarness({ endpoints: ['PJSIP/alice'], answerOutboundAfterMs: 10 });
    h.connect('app', ['ivr'], false);
    const created = await h.req('POST', '/channels', {
      endpoint: 'PJSIP/alice',
      app: 'ivr',
      appArgs: APP_ARGS,
    });
    expect(created.status).toBe(200);
    const id = (created.body as Snapshot).id;
    await h.advance(10);
    await expectAppDataMatches(h, 'app', id, 'ivr');
    expect(stasisStart(h, 'app', id).channel.dialplan.app_data).toBe(`ivr,${APP_ARGS}`);
  });

  it('does the same for a channel created for dial', async () => {
    const h = createHarness({ endpoints: ['PJSIP/alice'] });
    h.connect('app', ['ivr'], false);
    const created = await h.req('POST', '/channels/create', {
      endpoint: 'PJSIP/alice',
      app: 'ivr',
      appArgs: APP_ARGS,
    });
    expect(created.status).toBe(200);
    await expectAppDataMatches(h, 'app', (created.body as Snapshot).id, 'ivr');
  });

  it('splits a snoop’s appArgs the same way', async () => {
    const h = createHarness();
    h.connect('app', ['ivr'], false);
    const id = h.sim.driver.placeCall({ app: 'ivr' });
    await h.advance(0);
    const snooped = await h.req('POST', `/channels/${id}/snoop`, {
      app: 'ivr',
      spy: 'in',
      appArgs: APP_ARGS,
    });
    expect(snooped.status).toBe(200);
    const snoopId = (snooped.body as Snapshot).id;
    await h.advance(0);
    await expectAppDataMatches(h, 'app', snoopId, 'ivr');
    expect(stasisStart(h, 'app', snoopId).channel.dialplan.app_data).toBe(`ivr,${APP_ARGS}`);
  });
});
