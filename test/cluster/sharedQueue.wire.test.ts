import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { runCleanups, sleep, until } from './classicProcesses.ts';
import { metric, type QueueProc, startQueueCluster } from './sharedQueueProcesses.ts';

afterEach(runCleanups);

const waiting = (p: QueueProc) => metric(p, 'ringflow_queue_callers_waiting', 'queue="support"');
const agents = (p: QueueProc, state: string) =>
  metric(p, 'ringflow_queue_agents', `queue="support",state="${state}"`);

/**
 * flows/support-queue.yaml run by three `ringflow run --cluster` processes on one simulator over
 * the wire and NATS: one call queue for all of them (docs/cluster.md, "Call queues shared by the
 * cluster"). 202 and 203 log out at the desk, so PJSIP/201 (answering after 4 s) is the one agent.
 */
describe.each(['classic', 'perCall'] as const)('one call queue for the cluster (%s)', (mode) => {
  /** Starts the cluster, and logs 202 and 203 out at the desk (through whichever processes). */
  async function withOneAgent() {
    const c = await startQueueCluster(3, mode);
    onTestFailed(() => c.tell());
    const desk = ['202', '203'].map((agent) =>
      c.sim.driver.placeCall({ context: 'pbx', from: agent, to: '8002' }),
    );
    await until('the desk calls to end', () => desk.every(c.gone), 30_000);
    return c;
  }

  it('callers on two processes wait in arrival order; the agent is rung for one at a time; the second hears its place', async () => {
    const c = await withOneAgent();
    const first = c.sim.driver.placeCall({ context: 'pbx', from: '5551001', to: '100' });
    await sleep(1_000);
    const second = c.sim.driver.placeCall({ context: 'pbx', from: '5551002', to: '100' });
    await until('the first caller put through to 201', () => c.putThrough('PJSIP/201').length === 1, 30_000);
    expect(c.putThrough('PJSIP/201')).toEqual([first]);
    const [p1, p2] = [c.holderOf(first), c.holderOf(second)];
    expect(p1 && p2 && p1 !== p2).toBe(true);
    // Every process holding a caller sees the other's: one waits, the agent talks.
    for (const p of [p1!, p2!]) {
      await until('the queue as one on each process', async () => (await waiting(p)) === 1, 10_000);
      expect(await agents(p, 'talking')).toBe(1);
    }
    // 30 s after joining, the second caller hears it is next.
    await until(
      'the second caller told it is next',
      () => c.heard(second).includes('sound:queue-youarenext'),
      45_000,
    );
    expect(c.putThrough('PJSIP/201')).toEqual([first]);
    // A supervisor's tool pauses the agent (its device state, not through ringflow): followed on
    // every process holding a caller, then resumed.
    const setAgent = (deviceState: string) =>
      c.sim.handle({
        method: 'PUT',
        path: '/deviceStates/Stasis:queue-support-PJSIP-201',
        query: { deviceState },
      });
    await setAgent('ONHOLD');
    await until(
      'the agent paused on both processes',
      async () => (await agents(p1!, 'paused')) === 1 && (await agents(p2!, 'paused')) === 1,
      10_000,
    );
    await setAgent('NOT_INUSE');
    await until(
      'the agent back on both processes',
      async () => (await agents(p1!, 'talking')) === 1 && (await agents(p2!, 'talking')) === 1,
      10_000,
    );

    // The agent hangs up: the first caller's flow says goodbye and hangs up; 201 wraps up (10 s),
    // then rings for the second caller.
    c.sim.driver.hangup((await c.agentUp('PJSIP/201'))!);
    await until('the first caller hung up by its flow', () => c.gone(first), 20_000);
    for (const p of [p1!, p2!]) expect(await agents(p, 'wrapUp')).toBe(1);
    await until('the second caller put through', () => c.putThrough('PJSIP/201').length === 2, 30_000);
    c.sim.driver.hangup((await c.agentUp('PJSIP/201'))!);
    await until('the second caller hung up by its flow', () => c.gone(second), 20_000);
    expect(c.answered()).toEqual([
      { call: first, agent: 'PJSIP/201' },
      { call: second, agent: 'PJSIP/201' },
    ]);
    // The wrap-up gauge follows the agent on every process: 10 s after the call, available.
    for (const p of [p1!, p2!]) expect(await agents(p, 'wrapUp')).toBe(1);
    await until(
      'the agent available again on both processes',
      async () => (await agents(p1!, 'available')) === 1 && (await agents(p2!, 'available')) === 1,
      15_000,
    );
    expect(await agents(p1!, 'wrapUp')).toBe(0);
    expect(c.mostAtOnce('PJSIP/201')).toBe(1);
    // Each process read and followed the agents' device states (per-call connections too).
    for (const p of c.procs)
      expect(p.lines.filter((l) => String(l.msg).includes('device states'))).toEqual([]);
  }, 180_000);

  it('the process holding the first waiting caller is killed: every caller keeps its place', async () => {
    const c = await withOneAgent();
    const talking = c.sim.driver.placeCall({ context: 'pbx', from: '5551000', to: '100' });
    await until('the agent talking', () => c.putThrough('PJSIP/201').length === 1, 30_000);
    const first = c.sim.driver.placeCall({ context: 'pbx', from: '5551001', to: '100' });
    await sleep(1_000);
    const second = c.sim.driver.placeCall({ context: 'pbx', from: '5551002', to: '100' });
    const holder = await until('both callers waiting', async () => {
      const p = c.holderOf(first);
      return p && c.holderOf(second) && (await waiting(p)) === 2 && p;
    });
    holder.child.kill('SIGKILL');
    holder.dead = true;
    await until(
      'the first caller taken over by another process',
      () => {
        const now = c.holderOf(first);
        return now !== undefined && now !== holder;
      },
      60_000,
    );
    const survivor = c.holderOf(first)!;
    await until('both callers still waiting there', async () => (await waiting(survivor)) === 2, 20_000);
    if (mode === 'classic') {
      // The cluster's roles at /metrics: one holder among the processes left, two workers seen
      // by each, the killed one's calls counted where they went.
      const alive = c.procs.filter((p) => !p.dead);
      const roles = async (name: string) => Promise.all(alive.map((p) => metric(p, name, '')));
      await until('one holder, two workers seen by each', async () => {
        const [holding, workers] = [
          await roles('ringflow_cluster_holding'),
          await roles('ringflow_cluster_workers'),
        ];
        return holding.reduce((a, b) => (a ?? 0) + (b ?? 0), 0) === 1 && workers.every((n) => n === 2);
      });
      expect(await metric(survivor, 'ringflow_cluster_calls_taken_over_total', '')).toBeGreaterThanOrEqual(1);
      expect(await roles('ringflow_cluster_fenced')).toEqual([0, 0]);
    }

    // The agent's conversation ends: after its wrap-up it takes the callers in arrival order.
    c.sim.driver.hangup((await c.agentUp('PJSIP/201'))!);
    await until('the first waiting caller put through', () => c.putThrough('PJSIP/201').length === 2, 40_000);
    c.sim.driver.hangup((await c.agentUp('PJSIP/201'))!);
    await until(
      'the second waiting caller put through',
      () => c.putThrough('PJSIP/201').length === 3,
      40_000,
    );
    expect(c.putThrough('PJSIP/201')).toEqual([talking, first, second]);
    c.sim.driver.hangup((await c.agentUp('PJSIP/201'))!);
    await until('every caller hung up by its flow', () => [talking, first, second].every(c.gone), 30_000);
    expect(c.answered().map((a) => a.call)).toEqual([talking, first, second]);
    expect(c.mostAtOnce('PJSIP/201')).toBe(1);
  }, 240_000);
});
