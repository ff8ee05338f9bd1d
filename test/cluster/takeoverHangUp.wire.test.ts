import { afterEach, describe, expect, it } from 'vitest';
import { endings, inMenu, runCleanups, startClassicCluster, until } from './classicProcesses.ts';

/**
 * No call left behind (issue 27): a caller who hangs up between the death of the process that
 * drove the call and its takeover. Nobody hears the StasisEnd; the process that takes the call
 * over restores it, learns from the server that the caller left, and runs the flow's hang-up path
 * once (the shipped IVR's `caller-left` raises the user event CallerLeft); the call's record goes.
 * Before, the record was dropped (or left, owned by the dead process) and the hang-up path never
 * ran.
 */

afterEach(runCleanups);

describe('classic cluster: a caller hangs up while the process driving the call is dead', () => {
  it('the process taking the call over runs the flow hang-up path once, and the record goes', async () => {
    const { sim, procs, observer } = await startClassicCluster(2);
    let callerLeft = 0;
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent' && e.eventname === 'CallerLeft') callerLeft++;
    });
    const call = sim.driver.placeCall({ context: 'pbx', to: '100' });
    await until('the call in the main menu', async () => (await observer.list()).some(inMenu));
    const ownerName = await observer.ownerOf(call);
    const owner = procs.find((p) => p.owner === ownerName)!;
    expect(owner).toBeDefined();
    owner.child.kill('SIGKILL');
    owner.dead = true;
    sim.driver.hangup(call);
    const survivor = procs.find((p) => p !== owner)!;
    const ended = await until('the survivor to end the call', () =>
      endings([survivor]).find((e) => e.call === call),
    );
    expect(ended.outcome).toBe('reconciled');
    await until('the call record removed', async () => (await observer.list()).length === 0);
    await until('the hang-up path to have raised CallerLeft', () => callerLeft > 0);
    expect(callerLeft).toBe(1);
  }, 120_000);
});
