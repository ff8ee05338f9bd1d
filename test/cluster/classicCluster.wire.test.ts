import { afterEach, describe, expect, it } from 'vitest';
import {
  endings,
  holds,
  inMenu,
  onCleanup,
  runCleanups,
  said,
  startClassicCluster,
  until,
} from './classicProcesses.ts';

/**
 * Cluster mode with a server reached the classic way (one event connection per application):
 * several real `ringflow run --server ... --cluster nats://...` processes on one simulator over
 * the wire. One holds the event connection (KV lease) and publishes the events into JetStream;
 * each call is assigned to one process, which drives it. A process killed with SIGKILL loses its
 * roles to the others: the event connection within about 0.8 s (the holder's election by
 * revision), its calls within the worker lease TTL (5 s) and 2 turns: they are claimed from the
 * store and go on.
 */

afterEach(runCleanups);

/**
 * Calls in flight when a worker or the event connection holder is killed: the issue's load (3
 * processes, 200 calls of the shipped IVR). Each kill test takes ~30-40 s of real time.
 */
const LOAD_CALLS = 200;

describe('cluster mode, classic event connection (ringflow run --server --cluster)', () => {
  it('spreads the calls over the processes; every call completes once', async () => {
    const { sim, procs, observer, voicemails } = await startClassicCluster(2, {
      extraArgs: ['--cluster-lease', '6s', '--cluster-holder-takeover', '1500ms'],
    });
    for (const p of procs)
      expect(p.stderr).toMatch(/taken over 1500 ms after its last accepted renewal\).*\(leases of 6 s\)/);
    expect(procs.filter(holds)).toHaveLength(1);
    const calls = Array.from({ length: 6 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const owners = new Set<string | undefined>();
    for (const call of calls) owners.add(await observer.ownerOf(call));
    expect(owners).toEqual(new Set(procs.map((p) => p.owner)));
    for (const call of calls) sim.driver.pressDigits(call, '3');
    const ended = await until('every call ended', () => {
      const all = endings(procs).filter((e) => calls.includes(e.call));
      return all.length >= calls.length ? all : undefined;
    });
    expect(ended).toHaveLength(calls.length);
    for (const e of ended) expect(e.outcome).toBe('completed');
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    await until('the bucket empty', async () => (await observer.list()).length === 0);
  }, 120_000);

  it('200 calls, a worker killed with SIGKILL mid-call: its calls are taken over and every call completes once', async () => {
    const { sim, procs, observer, voicemails } = await startClassicCluster(3);
    const calls = Array.from({ length: LOAD_CALLS }, () =>
      sim.driver.placeCall({ context: 'pbx', to: '100' }),
    );
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const owners = new Map<string, string | undefined>();
    for (const call of calls) owners.set(call, await observer.ownerOf(call));
    // The victim: a process that drives calls and does not hold the event connection.
    const victim = procs.find((p) => !holds(p) && [...owners.values()].includes(p.owner))!;
    expect(victim).toBeDefined();
    const victimCalls = calls.filter((c) => owners.get(c) === victim.owner);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    victim.dead = true;
    const survivors = procs.filter((p) => p !== victim);
    // The victim's callers choose voicemail (3) before anyone took their calls over: the survivors
    // replay those keys from the stream once they have claimed the calls.
    for (const call of victimCalls) sim.driver.pressDigits(call, '3');

    const takenAt = await until('the victim calls claimed by survivors', async () => {
      for (const call of victimCalls) {
        const owner = await observer.ownerOf(call);
        if (owner === victim.owner || owner === undefined) return undefined;
      }
      return Date.now();
    });
    const tookOver = () =>
      survivors.flatMap((p) => said(p, 'took over the calls of workers whose lease lapsed'));
    await until(
      'the survivors to log the takeover',
      () => tookOver().reduce((n, l) => n + (l.calls as number), 0) >= victimCalls.length,
    ).catch((error) => {
      for (const p of survivors)
        for (const l of p.lines)
          if ((l.time as number) >= killedAt && (l.level as number) >= 30 && l.msg !== 'call started')
            console.log('after the kill:', p.owner, JSON.stringify(l).slice(0, 400));
      throw error;
    });
    const logged = tookOver();
    console.log(
      `classic cluster: worker SIGKILL -> its ${victimCalls.length} calls claimed in ${takenAt - killedAt} ms (seen by polling the bucket); survivors' log: ${logged.map((l) => `${(l.time as number) - killedAt} ms`).join(', ')}`,
    );
    const replays = () =>
      survivors.flatMap((p) => said(p, 'replayed the keys pressed on the calls taken over'));
    await until(
      'the survivors to replay the keys',
      () => replays().reduce((n, l) => n + (l.calls as number), 0) >= victimCalls.length,
    );
    expect(replays().reduce((n, l) => n + (l.replayedDigits as number), 0)).toBe(victimCalls.length);

    for (const call of calls) if (!victimCalls.includes(call)) sim.driver.pressDigits(call, '3');
    const ended = await until(
      'every call ended',
      () => {
        const all = endings(survivors).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
        return all.length >= calls.length ? all : undefined;
      },
      90_000,
    );
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    await until('the bucket empty', async () => (await observer.list()).length === 0);
  }, 150_000);

  it('200 calls, the event connection holder killed with SIGKILL: another takes the connection and the calls go on', async () => {
    const { sim, procs, observer, voicemails } = await startClassicCluster(3);
    const calls = Array.from({ length: LOAD_CALLS }, () =>
      sim.driver.placeCall({ context: 'pbx', to: '100' }),
    );
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const holder = procs.find(holds)!;
    const holderCalls: string[] = [];
    const owners = new Map<string, string | undefined>();
    for (const call of calls) owners.set(call, await observer.ownerOf(call));
    for (const call of calls) if (owners.get(call) === holder.owner) holderCalls.push(call);
    holder.child.kill('SIGKILL');
    const killedAt = Date.now();
    holder.dead = true;
    const survivors = procs.filter((p) => p !== holder);
    let passed = false;
    onCleanup(() => {
      if (passed) return;
      // What the roles did after the kill, and the path of each call that did not leave a voicemail.
      for (const p of survivors)
        for (const l of p.lines)
          if (
            (l.time as number) > killedAt &&
            /lease|took over|replayed|holding|let every/.test(String(l.msg))
          )
            console.log(
              'after the kill:',
              p.owner,
              (l.time as number) - killedAt,
              'ms',
              l.msg,
              l.calls ?? '',
            );
      for (const call of calls)
        if (call !== hungUp && voicemails.get(call) !== 1)
          console.log(
            'no voicemail:',
            call,
            JSON.stringify(
              survivors.flatMap((p) =>
                p.lines
                  .filter((l) => l.call === call && (l.level as number) >= 30)
                  .map((l) => [p.owner, (l.time as number) - killedAt, l.msg, l.outcome, l.state]),
              ),
            ).slice(0, 1500),
          );
    });
    // While nobody holds the event connection, a caller of a survivor hangs up: the StasisEnd is
    // lost, and the survivor learns it from the gap marker's reconciliation.
    const hungUp = calls.find((c) => owners.get(c) !== holder.owner)!;
    sim.driver.hangup(hungUp);
    const next = await until('another process to hold the event connection', () => survivors.find(holds));
    const heldAt = said(next, 'holding the event connection: events go to the JetStream stream')[0]!
      .time as number;
    await until('the dead holder calls claimed', async () => {
      for (const call of holderCalls) {
        const owner = await observer.ownerOf(call);
        if (owner === holder.owner || owner === undefined) return false;
      }
      return true;
    });
    console.log(
      `classic cluster: holder SIGKILL -> event connection held again after ${heldAt - killedAt} ms; its ${holderCalls.length} calls claimed too`,
    );
    const reconciled = await until('the hung-up call ended by the reconciliation', () =>
      endings(survivors).find((e) => e.call === hungUp),
    );
    expect(reconciled.outcome).toBe('reconciled');
    // The events reach the workers through the new holder: the other callers choose voicemail.
    const going = calls.filter((c) => c !== hungUp);
    for (const call of going) sim.driver.pressDigits(call, '3');
    const ended = await until(
      'every call ended',
      () => {
        const all = endings(survivors).filter((e) => going.includes(e.call) && e.outcome === 'completed');
        return all.length >= going.length ? all : undefined;
      },
      90_000,
    );
    expect(ended).toHaveLength(going.length);
    for (const call of going) expect(voicemails.get(call)).toBe(1);
    expect(endings(survivors).filter((e) => e.call === hungUp)).toHaveLength(1);
    await until('the bucket empty', async () => (await observer.list()).length === 0);
    passed = true;
  }, 150_000);

  it('a worker cut from NATS longer than its lease lets its calls go before the others take them: no call is driven twice', async () => {
    // The third process reaches NATS through a proxy that is stalled: its lease renewals hang.
    const { proxy, sim, procs, observer, voicemails, promptsHeard } = await startClassicCluster(3, {
      stallable: 2,
    });
    const victim = procs[2]!;
    expect(holds(victim)).toBe(false);
    const calls = Array.from({ length: 30 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const victimCalls: string[] = [];
    for (const call of calls) if ((await observer.ownerOf(call)) === victim.owner) victimCalls.push(call);
    expect(victimCalls.length).toBeGreaterThan(0);
    const survivors = procs.filter((p) => p !== victim);
    proxy.stall();
    // Before its lease can lapse on the server, the victim lets its calls go by its own timer.
    const fence = await until(
      'the victim to let its calls go',
      () =>
        said(
          victim,
          'worker lease lost: let every call go untouched; those nobody claims are taken back when the lease is',
        )[0],
    );
    expect(fence.calls).toBe(victimCalls.length);
    // Its /readyz says why it takes no call.
    const probes = /probes on (http:\/\/[^ ]+)\/healthz/.exec(victim.stderr)?.[1];
    expect(probes).toBeDefined();
    const notReady = await fetch(`${probes}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toContain('lost its worker lease');
    await until('the victim calls claimed by the others', async () => {
      for (const call of victimCalls) {
        const owner = await observer.ownerOf(call);
        if (owner === victim.owner || owner === undefined) return false;
      }
      return true;
    });
    const tookOver = () =>
      survivors.flatMap((p) => said(p, 'took over the calls of workers whose lease lapsed'));
    await until(
      'the others to log the takeover',
      () => tookOver().reduce((n, l) => n + (l.calls as number), 0) >= victimCalls.length,
    );
    // The victim let go before anyone took over (one machine: one clock).
    expect(fence.time as number).toBeLessThan(Math.min(...tookOver().map((l) => l.time as number)));
    // The callers choose voicemail while the victim is still cut off: the others, who drive its
    // calls now, start their recordings.
    for (const call of calls) sim.driver.pressDigits(call, '3');
    await until('every caller out of the main menu', async () =>
      (await observer.list()).every((r) => !inMenu(r)),
    );
    // The victim's connection comes back: the events it missed (those keys) and the writes it held
    // flow again. Had it kept its calls, it would act on the keys too (a second recording of the
    // same name: 409, the caller sent to the apology). It takes its place as a worker again.
    proxy.resume();
    await until(
      'the victim to take its lease again',
      () => said(victim, 'worker lease taken again').length > 0,
    );
    await until('the victim ready again', async () => (await fetch(`${probes}/readyz`)).status === 200);
    const ended = await until('every call ended', () => {
      const all = endings(procs).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
      return all.length >= calls.length ? all : undefined;
    });
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    // Each caller heard the voicemail prompt once: the victim did not act on the keys it heard late.
    for (const call of calls) expect(promptsHeard(call, 'sound:vm-intro')).toBe(1);
    for (const e of endings([victim]).filter((e) => victimCalls.includes(e.call)))
      expect(e.outcome).toBe('detached');
    for (const e of endings(procs)) expect(e.outcome).not.toBe('failed');
    await until('the bucket empty', async () => (await observer.list()).length === 0);
  }, 150_000);

  it('SIGTERM hands the roles over: the event connection and the calls move, and complete', async () => {
    const { sim, procs, observer, voicemails } = await startClassicCluster(2);
    const calls = Array.from({ length: 4 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const holder = procs.find(holds)!;
    const other = procs.find((p) => p !== holder)!;
    holder.child.kill('SIGTERM');
    expect(await holder.exit).toBe(0);
    expect(holder.stderr).toMatch(/handing \d+ calls? over to the cluster/);
    await until('the other process to hold the event connection', () => holds(other));
    await until('every call owned by the other process', async () => {
      for (const call of calls) if ((await observer.ownerOf(call)) !== other.owner) return false;
      return true;
    });
    for (const call of calls) sim.driver.pressDigits(call, '3');
    const ended = await until('every call ended', () => {
      const all = endings([other]).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
      return all.length >= calls.length ? all : undefined;
    });
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    for (const e of endings([holder])) expect(e.outcome).toBe('detached');
  }, 120_000);

  it('NATS restarted under calls: the roles and the calls go on', async () => {
    // The default lease (5 s): a restart can outlast it (JetStream answers again only seconds
    // after the server is back). A worker whose renewals fail lets its calls go before its lease
    // can lapse, and takes back, once it holds its lease again, those nobody claimed meanwhile.
    const { nats, sim, procs, observer, voicemails } = await startClassicCluster(3);
    const calls = Array.from({ length: LOAD_CALLS }, () =>
      sim.driver.placeCall({ context: 'pbx', to: '100' }),
    );
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const restartedAt = Date.now();
    let passed = false;
    onCleanup(() => {
      if (passed) return;
      for (const p of procs)
        for (const l of p.lines)
          if (
            (l.time as number) > restartedAt &&
            ((l.level as number) >= 40 || /took over|holding|lost|claimed/.test(String(l.msg)))
          )
            console.log('after the restart:', p.owner, JSON.stringify(l).slice(0, 300));
    });
    await nats.restart();
    // The stream and the buckets are on file storage; the clients reconnect by themselves. Events
    // published while the holder could not reach NATS are lost: once NATS is back, the holder (the
    // same, or another if the restart outlasted its lease) has every worker reconcile.
    await until(
      'every process to reconcile after the restart',
      () =>
        procs.every((p) =>
          p.lines.some(
            (l) => String(l.msg).startsWith('event stream gap:') && (l.time as number) > restartedAt,
          ),
        ),
      60_000,
    );
    // The callers choose voicemail. A key pressed while the holder changes hands (the restart can
    // outlast its lease: a new holder is elected a few seconds later) is lost, as on a real server
    // with nobody connected: a caller still in the main menu presses it again, as people do.
    let pressedAt = 0;
    await until('every caller out of the main menu', async () => {
      const waiting = (await observer.list().catch(() => [])).filter(inMenu).map((r) => r.callId);
      if (waiting.length === 0) return true;
      if (Date.now() - pressedAt < 2_000) return false;
      pressedAt = Date.now();
      for (const call of waiting) sim.driver.pressDigits(call, '3');
      return false;
    });
    const ended = await until('every call ended', () => {
      const all = endings(procs).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
      return all.length >= calls.length ? all : undefined;
    });
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    await until('the bucket empty', async () => (await observer.list()).length === 0);
    passed = true;
  }, 120_000);

  it('a rolling restart (each process replaced by SIGTERM, one after the other): every call completes once', async () => {
    const { sim, procs, observer, voicemails, start } = await startClassicCluster(3);
    const calls = Array.from({ length: LOAD_CALLS }, () =>
      sim.driver.placeCall({ context: 'pbx', to: '100' }),
    );
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    const old = [...procs];
    for (const p of old) {
      const replacement = await start();
      await until('the replacement listed as a worker', () =>
        procs
          .filter((q) => !q.dead)
          .every((q) =>
            (said(q, 'cluster workers changed').at(-1)?.workers as string[] | undefined)?.includes(
              replacement.owner,
            ),
          ),
      );
      p.child.kill('SIGTERM');
      expect(await p.exit).toBe(0);
      p.dead = true;
      await until('no call left with the stopped process', async () => {
        for (const call of calls) if ((await observer.ownerOf(call)) === p.owner) return false;
        return true;
      });
    }
    const fresh = procs.filter((p) => !old.includes(p));
    await until('one of the new processes to hold the event connection', () => fresh.some(holds));
    for (const call of calls) sim.driver.pressDigits(call, '3');
    const ended = await until('every call ended', () => {
      const all = endings(fresh).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
      return all.length >= calls.length ? all : undefined;
    });
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    for (const e of endings(old)) expect(e.outcome).toBe('detached');
    await until('the bucket empty', async () => (await observer.list()).length === 0);
  }, 180_000);
});
