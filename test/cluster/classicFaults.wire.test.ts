import { afterEach, describe, expect, it } from 'vitest';
import {
  callersChooseVoicemail,
  endings,
  HOLDING,
  holds,
  inMenu,
  onCleanup,
  runCleanups,
  said,
  startClassicCluster,
  sleep,
  tellCalls,
  until,
} from './classicProcesses.ts';

/**
 * Classic cluster mode under the faults of issue 27, with real `ringflow run --server --cluster`
 * processes on a simulator over the wire and a real `nats-server -js`:
 * - the event connection holder killed with SIGKILL while calls arrive: a new holder connects
 *   within about a second, and the calls placed meanwhile, whose `Stasis()` fails while nobody has
 *   the application registered, retry it in the dialplan (the shipped `from-callers-cluster`
 *   recipe) and enter once the new holder is there;
 * - NATS killed with SIGKILL (its stream may come back shorter, sequence reset) and started again
 *   under calls: every worker notices within seconds and every call goes on.
 * Measured times are logged, never asserted.
 */

afterEach(runCleanups);

/** The recipe of the shipped dialplan's from-callers-cluster context, for the application `ivr`. */
const RETRYING = `[pbx]
exten => 100,1,Set(TRIES=0)
 same => n(retry),Stasis(ivr)
 same => n,GotoIf($["\${STASISSTATUS}" = "FAILED" & \${TRIES} < 20]?again)
 same => n,Hangup()
 same => n(again),Set(TRIES=$[\${TRIES} + 1])
 same => n,Wait(0.2)
 same => n,Goto(retry)
`;

describe('classic cluster mode under faults (issue 27)', () => {
  it('holder killed with SIGKILL while 40 calls arrive over 10 s: a new holder within about a second, every call enters the application and completes exactly once', async () => {
    const { sim, procs, observer, voicemails, entered, promptsHeard } = await startClassicCluster(3, {
      dialplan: RETRYING,
    });
    const holder = procs.find(holds)!;
    const survivors = procs.filter((p) => p !== holder);
    const calls: string[] = [];
    const stopPressing = callersChooseVoicemail(
      () => calls,
      async () => new Set((await observer.list()).filter(inMenu).map((r) => r.callId)),
      (call) => sim.driver.pressDigits(call, '3'),
    );
    onCleanup(stopPressing);
    /** The channels that failed Stasis() at least once (retried by the dialplan). */
    const retried = new Set<string>();
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelVarset' && e.variable === 'STASISSTATUS' && e.value === 'FAILED')
        retried.add(String((e.channel as { id?: string } | undefined)?.id));
    });
    let killedAt = 0;
    for (let i = 0; i < 40; i++) {
      if (i === 16) {
        holder.child.kill('SIGKILL');
        killedAt = Date.now();
        holder.dead = true;
      }
      calls.push(sim.driver.placeCall({ context: 'pbx', to: '100' }));
      await sleep(250);
    }
    let passed = false;
    onCleanup(() => {
      if (passed) return;
      for (const p of survivors)
        for (const l of p.lines)
          if (
            (l.time as number) > killedAt &&
            /lease|took over|holding|let every|gap|JetStream/.test(String(l.msg))
          )
            console.log(
              'after the kill:',
              p.owner,
              (l.time as number) - killedAt,
              'ms',
              l.msg,
              l.calls ?? '',
            );
      const done = new Set(
        endings(procs)
          .filter((e) => e.outcome === 'completed')
          .map((e) => e.call),
      );
      tellCalls(
        procs,
        calls.filter((c) => !done.has(c)),
        killedAt,
      );
    });
    const next = await until('another process to hold the event connection', () => survivors.find(holds));
    const heldAt = said(next, HOLDING)[0]!.time as number;
    const ended = await until(
      'every call completed',
      () => {
        const all = endings(procs).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
        return all.length >= calls.length ? all : undefined;
      },
      120_000,
    );
    stopPressing();
    const duringChange = calls.filter((c) => retried.has(c));
    // Holders that gave the connection up on their own (a renewal late under load) after the kill:
    // each costs a gap marker; logged, to see whether the 600 ms bound holds under CI load.
    const fenced = survivors.flatMap((p) =>
      said(p, 'lost the event connection lease: closing the event connection now'),
    ).length;
    console.log(
      `classic cluster: holder SIGKILL -> new holder's event connection open after ${heldAt - killedAt} ms; ${duringChange.length} of ${calls.length} calls failed Stasis() at least once and retried; ${fenced} later holder self-fences`,
    );
    // Every call entered the application (those placed during the change after retrying) ...
    for (const call of calls) expect(entered.get(call) ?? 0).toBeGreaterThanOrEqual(1);
    // ... and was driven once: one completion, one voicemail, nothing failed.
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    // Two processes driving one call would both start its voicemail prompt.
    for (const call of calls) expect(promptsHeard(call, 'sound:vm-intro')).toBe(1);
    for (const e of endings(procs)) expect(e.outcome).not.toBe('failed');
    await until('the bucket empty', async () => (await observer.list()).length === 0);
    passed = true;
  }, 240_000);

  it('NATS killed with SIGKILL and started again under 40 calls: every worker notices within seconds and every call goes on', async () => {
    const { nats, sim, procs, observer, voicemails, promptsHeard } = await startClassicCluster(3);
    const calls = Array.from({ length: 40 }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every call in the main menu', async () => {
      const records = await observer.list();
      return records.length === calls.length && records.every(inMenu);
    });
    await nats.kill();
    const killedAt = Date.now();
    // NATS stays away 3 s (the fault), then comes back on the same port with the same store.
    await sleep(3_000);
    await nats.start();
    const backAt = Date.now();
    let passed = false;
    onCleanup(() => {
      if (passed) return;
      for (const p of procs)
        for (const l of p.lines)
          if (
            (l.time as number) > killedAt &&
            ((l.level as number) >= 40 || /took over|holding|JetStream|gap/.test(String(l.msg)))
          )
            console.log(
              'after the kill:',
              p.owner,
              (l.time as number) - killedAt,
              'ms',
              JSON.stringify(l).slice(0, 300),
            );
      tellCalls(
        procs,
        calls.filter((c) => promptsHeard(c, 'sound:vm-intro') === 0),
        killedAt,
      );
    });
    // The callers choose voicemail, again while they still hear the menu (the store may have lost
    // the last writes: the caller's side, not the store, says who still waits).
    const stopPressing = callersChooseVoicemail(
      () => calls,
      async () => new Set(calls.filter((c) => promptsHeard(c, 'sound:vm-intro') === 0)),
      (call) => sim.driver.pressDigits(call, '3'),
    );
    onCleanup(stopPressing);
    // Bounded (30 s, far above the few seconds it takes) to tell "goes on" from a stall: the
    // workers' consumers once waited ~40 s for the shortened stream to catch up.
    await until(
      'every caller to reach voicemail after NATS is back',
      () => calls.every((c) => promptsHeard(c, 'sound:vm-intro') > 0),
      30_000,
    );
    const goneOnAt = Date.now();
    const noticed = (msg: string) =>
      procs
        .flatMap((p) => said(p, msg).filter((l) => (l.time as number) > killedAt))
        .map((l) => `${(l.time as number) - backAt} ms`);
    console.log(
      `classic cluster: NATS SIGKILL, back 3 s later -> every call went on ${goneOnAt - backAt} ms after NATS was back; workers' consumers made again after a stream reset at ${noticed('JetStream events stream reset: consumer made again; reconciling the calls').join(', ') || 'none'}, after a stall at ${noticed('the JetStream event consumer stalled: made again from the next message').join(', ') || 'none'}; the holder saw the stream shorter at ${noticed('the JetStream events stream came back shorter (NATS lost messages): the workers reconcile').join(', ') || 'none'}`,
    );
    const ended = await until(
      'every call completed',
      () => {
        const all = endings(procs).filter((e) => calls.includes(e.call) && e.outcome === 'completed');
        return all.length >= calls.length ? all : undefined;
      },
      90_000,
    );
    stopPressing();
    expect(ended).toHaveLength(calls.length);
    for (const call of calls) expect(voicemails.get(call)).toBe(1);
    for (const call of calls) expect(promptsHeard(call, 'sound:vm-intro')).toBe(1);
    await until('the bucket empty', async () => (await observer.list()).length === 0);
    passed = true;
  }, 240_000);
});
