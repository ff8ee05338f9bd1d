import { systemClock, VirtualClock } from '@ringflow/client';
import { createActor, createMachine } from 'xstate';
import { toPlainData } from '../snapshot/liveValues.ts';
import { describe, expect, it } from 'vitest';
import { EffectRunner, type EffectTarget, effectSite } from './EffectRunner.ts';

function target(status = 'active') {
  const sent: { type: string; output?: unknown; error?: unknown }[] = [];
  const t: EffectTarget & { status: string } = {
    status,
    send: (event) => sent.push(event as never),
    getSnapshot: () => ({ status: t.status }),
  };
  return { t, sent };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('EffectRunner', () => {
  it("in a machine's context with a timer running on the real clock, the machine's snapshot can be persisted", () => {
    // XState walks the context property by property; Node's timer handles are linked lists. A
    // runner that let it reach them made every record of a call waiting on a timer (a dial
    // ringing) overflow the stack, and crashed the process.
    const runner = new EffectRunner(systemClock);
    const actor = createActor(createMachine({ context: { effects: runner } })).start();
    runner.startTimer(effectSite(3), 60_000, target().t);
    try {
      const persisted = toPlainData(actor.getPersistedSnapshot()) as { context: { effects: unknown } };
      expect(persisted.context.effects).toMatchObject({ $ringflow: 'effects' });
    } finally {
      runner.cancelTimer(effectSite(3));
      actor.stop();
    }
  });

  it('reports a result as flow.effect.done.<site> and a failure as flow.effect.error.<site>', async () => {
    const runner = new EffectRunner(new VirtualClock());
    const { t, sent } = target();
    runner.start(effectSite(1), async () => 'ok', t);
    runner.start(effectSite(2), async () => Promise.reject(new Error('boom')), t);
    await flush();
    expect(sent).toEqual([
      { type: 'flow.effect.done.e1', output: 'ok' },
      { type: 'flow.effect.error.e2', error: new Error('boom') },
    ]);
    expect(runner.pending).toBe(0);
  });

  it('drops the result of an effect whose state was left while it ran', async () => {
    const runner = new EffectRunner(new VirtualClock());
    const { t, sent } = target();
    let finish!: (value: string) => void;
    runner.start(effectSite(1), () => new Promise<string>((resolve) => (finish = resolve)), t);
    await flush();
    runner.cancel(effectSite(1));
    finish('late');
    await flush();
    expect(sent).toEqual([]);
  });

  it('never starts an effect cancelled in the transition that started it', async () => {
    const runner = new EffectRunner(new VirtualClock());
    const { t, sent } = target();
    let ran = 0;
    runner.start(effectSite(1), async () => ++ran, t);
    runner.cancel(effectSite(1));
    await flush();
    expect(ran).toBe(0);
    expect(sent).toEqual([]);
  });

  it('a re-entered state gets only the result of its latest run', async () => {
    const runner = new EffectRunner(new VirtualClock());
    const { t, sent } = target();
    const resolvers: ((value: string) => void)[] = [];
    const work = () => new Promise<string>((resolve) => resolvers.push(resolve));
    runner.start(effectSite(1), work, t);
    await flush();
    runner.cancel(effectSite(1));
    runner.start(effectSite(1), work, t);
    await flush();
    resolvers[0]!('first');
    resolvers[1]!('second');
    await flush();
    expect(sent).toEqual([{ type: 'flow.effect.done.e1', output: 'second' }]);
  });

  it('sends nothing to a machine that is no longer running', async () => {
    const runner = new EffectRunner(new VirtualClock());
    const { t, sent } = target();
    runner.start(effectSite(1), async () => 'ok', t);
    t.status = 'stopped';
    await flush();
    expect(sent).toEqual([]);
  });

  it('timers send flow.timer.<site> when they fire, and nothing once cancelled or restarted', async () => {
    const clock = new VirtualClock();
    const runner = new EffectRunner(clock);
    const { t, sent } = target();
    runner.startTimer(effectSite(1), 1000, t);
    runner.startTimer(effectSite(2), 1000, t);
    runner.cancelTimer(effectSite(2));
    await clock.advance(500);
    runner.startTimer(effectSite(1), 1000, t); // re-entered: counts from now
    await clock.advance(999);
    expect(sent).toEqual([]);
    await clock.advance(1);
    expect(sent).toEqual([{ type: 'flow.timer.t1' }]);
    expect(runner.pending).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('EffectRunner: persisted and resumed', () => {
  it('writes what is under way as plain data: running effects by slot, timers by the clock time they fire', async () => {
    const clock = new VirtualClock();
    const t0 = clock.now();
    const runner = new EffectRunner(clock);
    const { t } = target();
    runner.start(effectSite(0), () => new Promise(() => {}), t);
    runner.startTimer(effectSite(1), 5000, t);
    runner.start(effectSite(2), async () => 'done', t);
    await flush();
    const persisted = runner.persist();
    expect(persisted).toEqual({
      $ringflow: 'effects',
      effects: [0],
      timers: [{ slot: 1, deadline: t0 + 5000 }],
    });
    expect(JSON.parse(JSON.stringify(persisted))).toEqual(persisted);
  });

  it('a restored runner starts nothing until resumed, then fires each timer for the time it had left (at once when past) and takes up each effect', async () => {
    const clock = new VirtualClock();
    const now = clock.now();
    const runner = EffectRunner.restored(clock, {
      $ringflow: 'effects',
      effects: [0],
      timers: [
        { slot: 1, deadline: now + 3000 },
        { slot: 3, deadline: now - 1000 },
      ],
    });
    const { t, sent } = target();
    expect(runner.pending).toBe(0);
    // Written again before it resumed: still what the snapshot said.
    expect(runner.persist().timers).toHaveLength(2);
    const resumed: number[] = [];
    runner.resume({ effect: (slot) => resumed.push(slot), timer: (slot) => effectSite(slot) }, t);
    expect(resumed).toEqual([0]);
    await clock.advance(0);
    expect(sent).toEqual([{ type: 'flow.timer.t3' }]);
    await clock.advance(2999);
    expect(sent).toHaveLength(1);
    await clock.advance(1);
    expect(sent).toEqual([{ type: 'flow.timer.t3' }, { type: 'flow.timer.t1' }]);
    // Resuming twice takes up nothing more.
    runner.resume({ effect: (slot) => resumed.push(slot), timer: (slot) => effectSite(slot) }, t);
    expect(resumed).toEqual([0]);
  });

  it('an effect taken up without being sent again (awaitEvents) counts as running until its state is left', () => {
    const runner = new EffectRunner(new VirtualClock());
    runner.awaitEvents(effectSite(4));
    expect(runner.persist().effects).toEqual([4]);
    runner.cancel(effectSite(4));
    expect(runner.pending).toBe(0);
  });
});
