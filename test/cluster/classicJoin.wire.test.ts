import { afterEach, describe, expect, it } from 'vitest';
import {
  endings,
  inMenu,
  type Proc,
  runCleanups,
  said,
  sleep,
  startClassicCluster,
  until,
} from './classicProcesses.ts';

/**
 * A worker added to a running classic cluster (`ringflow run --server ... --cluster`) takes new
 * calls only: the calls in progress stay with the live workers that drive them. (A process's
 * start used to claim every stored call whose channel was up, a live worker's too.)
 *
 * A worker that does not renew its lease for the lease's life (5 s) is not live any more: it lets
 * its calls go, and the others take them, the new worker among them. That is the design, and it
 * happens to a process starved of CPU for seconds (a fresh-clone CI run once saw the new worker
 * take a call of a worker whose lease had lapsed). So a call may leave the worker it was on only
 * when that worker's log says it lost its lease; the second test pauses a worker past its lease
 * on purpose to check that this is told apart.
 */

afterEach(runCleanups);

const CALLS = 20;
/** Logged by a worker that lost its lease (its renewal came too late): it lets every call go. */
const LEASE_LOST =
  'worker lease lost: let every call go untouched; those nobody claims are taken back when the lease is';
const lostItsLease = (p: Proc) => said(p, LEASE_LOST).length > 0;

/**
 * Two workers with calls in the main menu, a third joining; `pauseMs`: the first worker is
 * stopped (SIGSTOP) that long right after the join. Checks that only the calls of a worker that
 * lost its lease move, and that every call completes once; resolves with the calls that moved.
 */
async function joinWithCallsInProgress(pauseMs?: number): Promise<{ moved: number; paused: Proc }> {
  const { sim, procs, observer, voicemails, start } = await startClassicCluster(2);
  const calls = Array.from({ length: CALLS }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
  await until('every call in the main menu', async () => {
    const records = await observer.list();
    return records.length === calls.length && records.every(inMenu);
  });
  const before = new Map<string, Proc>();
  for (const call of calls) {
    const owner = await observer.ownerOf(call);
    const proc = procs.find((p) => p.owner === owner);
    expect(proc, `${call}: owned by ${owner}, not a live worker`).toBeDefined();
    before.set(call, proc!);
  }

  const joined = await start();
  const paused = procs[0]!;
  if (pauseMs !== undefined) {
    paused.child.kill('SIGSTOP');
    await sleep(pauseMs);
    paused.child.kill('SIGCONT');
  }
  await until('every process to list the new worker', () =>
    procs.every((p) =>
      (said(p, 'cluster workers changed').at(-1)?.workers as string[] | undefined)?.includes(joined.owner),
    ),
  );
  let moved = 0;
  for (const call of calls) {
    const was = before.get(call)!;
    const owner = await observer.ownerOf(call);
    if (owner === was.owner) continue;
    moved++;
    // Its worker lost its lease, or this is a live worker's call taken: a worker still frozen says
    // so once it runs again.
    await until(
      `${call} moved from ${was.owner} to ${owner}: ${was.owner} to say it lost its lease (else a live worker's call was taken)`,
      () => lostItsLease(was),
      30_000,
    );
  }
  // What the new worker took, it took from workers that lost their lease.
  const lapsed = new Set(procs.filter(lostItsLease).map((p) => p.owner));
  for (const line of joined.lines)
    if (/restored|took over/.test(String(line.msg)) && Number(line.restored ?? line.calls ?? 0) > 0) {
      expect(lapsed.size, `${String(line.msg)} with no worker's lease lost`).toBeGreaterThan(0);
      for (const from of (line.from as string[] | undefined) ?? []) expect(lapsed).toContain(from);
    }
  if (moved > 0)
    console.log(`${moved} calls moved: ${[...lapsed].join(', ')} lost the worker lease (paused or starved)`);

  for (const call of calls) sim.driver.pressDigits(call, '3');
  // A worker that lost its lease ends its calls as `detached` (let go); each call completes once.
  const ended = await until('every call ended', () => {
    const all = endings(procs).filter(
      (e) => calls.includes(e.call) && !(e.outcome === 'detached' && lostItsLease(e.by)),
    );
    return all.length >= calls.length ? all : undefined;
  });
  expect(ended).toHaveLength(calls.length);
  for (const e of ended) {
    expect(e.outcome).toBe('completed');
    const was = before.get(e.call)!;
    if (!lostItsLease(was)) expect(e.by.owner).toBe(was.owner);
  }
  for (const call of calls) expect(voicemails.get(call)).toBe(1);
  await until('the bucket empty', async () => (await observer.list()).length === 0);
  return { moved, paused };
}

describe('cluster mode, classic: a worker joining a running cluster', () => {
  it("takes none of the live workers' calls; every call completes once, where it was", async () => {
    await joinWithCallsInProgress();
  }, 120_000);

  it('a worker paused past its lease meanwhile: its calls, and only its, move (the new worker may take them); every call completes once', async () => {
    // 9 s: its lease (5 s from its last renewal) has lapsed and the others have seen it gone for
    // two turns, so its calls are taken before it runs again.
    const { moved, paused } = await joinWithCallsInProgress(9_000);
    expect(lostItsLease(paused)).toBe(true);
    expect(moved).toBeGreaterThan(0);
  }, 150_000);
});
