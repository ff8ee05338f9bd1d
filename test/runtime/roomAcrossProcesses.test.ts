import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import type { CallEnded } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { inProcessApp } from './harness.ts';

/**
 * A conference room shared by calls that two processes drive (cluster mode, issue 32): the room is
 * the server's bridge, and whether it may close is judged from it. Two applications on one
 * simulator stand for two processes (each its own application name, so each gets its own calls'
 * events): the moderator's call in one, the member's in the other. When the moderator hangs up,
 * the room stays for the member (before: the moderator's process saw no call of its own left in
 * the room and destroyed it under the member).
 */

const flow = await loadFlowFile(new URL('../../flows/conference.yaml', import.meta.url).pathname);
const machine = createFlowCallMachine(flow, {
  inputs: { room: 'sales-weekly', moderatorPin: '1234', memberPin: '5678' },
});

describe('a conference room with callers on two processes', () => {
  it('the moderator leaving from one process does not close the room under a member on the other', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    const ended: CallEnded[] = [];
    const processes = ['conf-a', 'conf-b'].map((app) => {
      const p = inProcessApp(clock, [{ name: 'pbx', server: simulator }], { apps: [app], call: machine });
      p.app.callEnded$.subscribe((e) => ended.push(e));
      return p;
    });
    for (const p of processes) await p.app.start();
    const [a, b] = processes as [(typeof processes)[0], (typeof processes)[0]];
    simulator.driver.placeCall({ app: 'conf-a', channelId: 'moderator', from: '5551000' });
    await clock.advance(3_000);
    simulator.driver.pressDigits('moderator', '1234#');
    await clock.advance(10_000);
    simulator.driver.placeCall({ app: 'conf-b', channelId: 'member', from: '5552000' });
    await clock.advance(3_000);
    simulator.driver.pressDigits('member', '5678#');
    await clock.advance(10_000);
    const room = async () =>
      (await simulator.handle({ method: 'GET', path: '/bridges/ringflow-sales-weekly', query: {} })) as {
        status: number;
        body: { channels: string[] };
      };
    expect((await room()).body.channels.sort()).toEqual(['member', 'moderator']);
    simulator.driver.hangup('moderator');
    await clock.advance(10_000);
    expect(ended.map((e) => e.callId)).toEqual(['moderator']);
    // The member is still in the room, and the room is still there.
    expect((await room()).body.channels).toEqual(['member']);
    expect(b.app.call('member')).toBeDefined();
    const destroys = (p: typeof a) =>
      p.requests.filter((r) => r.method === 'DELETE' && /^\/bridges\/[^/]+$/.test(r.path));
    expect([...destroys(a), ...destroys(b)]).toHaveLength(0);
    // The last caller out closes it.
    simulator.driver.hangup('member');
    await clock.advance(10_000);
    expect((await room()).status).toBe(404);
    for (const p of processes) await p.app.stop();
    simulator.close();
  });

  it('the last call out closes the room though the server still lists one it was told to hang up (it answers before it carries the hang-up out)', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    const p = inProcessApp(clock, [{ name: 'pbx', server: simulator }], { apps: ['conf-a'], call: machine });
    await p.app.start();
    simulator.driver.placeCall({ app: 'conf-a', channelId: 'moderator', from: '5551000' });
    await clock.advance(3_000);
    simulator.driver.pressDigits('moderator', '1234#');
    await clock.advance(10_000);
    simulator.driver.placeCall({ app: 'conf-a', channelId: 'member', from: '5552000' });
    await clock.advance(3_000);
    simulator.driver.pressDigits('member', '5678#');
    await clock.advance(10_000);
    const room = () => simulator.handle({ method: 'GET', path: '/bridges/ringflow-sales-weekly', query: {} });
    expect((await room()).status).toBe(200);
    // The moderator's call is hung up by the application: the server answers at once and hangs up
    // on its next turn, so for a moment it still lists the moderator in the room.
    p.app.call('moderator')!.end('stopped', true);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect((await room()).body).toMatchObject({ channels: expect.arrayContaining(['moderator']) });
    // The member's call ends then: the room holds nobody but a channel this process hung up.
    p.app.call('member')!.end('stopped', true);
    await clock.advance(1_000);
    expect(simulator.channelCount).toBe(0);
    expect((await room()).status).toBe(404);
    await p.app.stop();
    simulator.close();
  });
});
