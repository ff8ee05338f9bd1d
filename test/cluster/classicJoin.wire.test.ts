import { afterEach, describe, expect, it } from 'vitest';
import { endings, inMenu, runCleanups, said, startClassicCluster, until } from './classicProcesses.ts';

/**
 * A worker added to a running classic cluster (`ringflow run --server ... --cluster`) takes new
 * calls only: the calls in progress stay with the live workers that drive them. (A process's
 * start used to claim every stored call whose channel was up, a live worker's too.)
 */

afterEach(runCleanups);

const CALLS = 20;

describe('cluster mode, classic: a worker joining a running cluster', () => {
  it("takes none of the live workers' calls; every call completes once, where it was", async () => {
    const { sim, procs, observer, voicemails, start } = await startClassicCluster(2);
    const calls = Array.from({ length: CALLS }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const before = new Map<string, string | undefined>();
    for (const call of calls) before.set(call, await observer.ownerOf(call));
    const live = procs.map((p) => p.owner);
    for (const owner of before.values()) expect(live).toContain(owner);

    const joined = await start();
    await until('every process to list the new worker', () =>
      procs.every((p) =>
        (said(p, 'cluster workers changed').at(-1)?.workers as string[] | undefined)?.includes(joined.owner),
      ),
    );
    for (const call of calls) expect(await observer.ownerOf(call), call).toBe(before.get(call));
    expect(
      joined.lines.filter(
        (l) => /restored|took over/.test(String(l.msg)) && Number(l.restored ?? l.calls ?? 0) > 0,
      ),
    ).toEqual([]);

    for (const call of calls) sim.driver.pressDigits(call, '3');
    const ended = await until('every call ended', () => {
      const all = endings(procs).filter((e) => calls.includes(e.call));
      return all.length >= calls.length ? all : undefined;
    });
    expect(ended).toHaveLength(calls.length);
    for (const e of ended) {
      expect(e.outcome).toBe('completed');
      expect(e.by.owner).toBe(before.get(e.call));
    }
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    await until('the bucket empty', async () => (await observer.list()).length === 0);
  }, 120_000);
});
