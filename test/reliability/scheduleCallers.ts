import type { VirtualClock } from '@ringflow/client';
import type { Simulator } from '@ringflow/simulator';
import { IVR_CALL_MAX_MS } from './ivrCallMachine.ts';
import { randomInt } from './seededRandom.ts';

/** Channels of a simulator that exist and are not hanging up, followed through its events. */
export function followLiveChannels(sim: Simulator): Set<string> {
  const live = new Set<string>();
  sim.driver.onEvent((e) => {
    const id = (e as unknown as { channel?: { id?: string } }).channel?.id;
    if (!id) return;
    if (e.type === 'ChannelCreated') live.add(id);
    if (e.type === 'ChannelHangupRequest' || e.type === 'ChannelDestroyed') live.delete(id);
  });
  return live;
}

/** The channel ids whose StasisStart the server sent (whether or not a socket carried it). */
export function followStasisStarts(sim: Simulator): Set<string> {
  const sent = new Set<string>();
  sim.driver.onEvent((e) => {
    if (e.type === 'StasisStart') sent.add((e as unknown as { channel: { id: string } }).channel.id);
  });
  return sent;
}

export interface CallerPlan {
  readonly calls: number;
  readonly spacingMs: number;
  /** Share of callers pressing a digit during the prompt. */
  readonly pressShare: number;
  /** Share of callers hanging up at a random moment of the call (any step of the IVR). */
  readonly hangUpShare: number;
  readonly prefix?: string;
}

/**
 * Schedules callers on the simulator's clock: call i arrives at i * spacingMs (into the dialplan,
 * which sends it to the application); a seeded share presses a digit during the prompt and a
 * seeded share hangs up at a random moment. Every caller still on the line after
 * IVR_CALL_MAX_MS hangs up, so the world ends empty whatever the application did.
 * `simulator()` may return undefined while the server is down (its callers are then lost).
 *
 * @example
 * scheduleCallers(clock, () => sim, seededRandom(7), { calls: 450, spacingMs: 40, pressShare: 0.5, hangUpShare: 0.4 });
 * await clock.advance(450 * 40 + IVR_CALL_MAX_MS);
 */
export function scheduleCallers(
  clock: VirtualClock,
  simulator: () => Simulator | undefined,
  random: () => number,
  plan: CallerPlan,
): string[] {
  const live = new WeakMap<Simulator, Set<string>>();
  const liveOf = (sim: Simulator) => {
    let set = live.get(sim);
    if (!set) {
      set = followLiveChannels(sim);
      live.set(sim, set);
    }
    return set;
  };
  const onLine = (id: string, act: (sim: Simulator) => void) => {
    const sim = simulator();
    if (sim && liveOf(sim).has(id)) act(sim);
  };
  const ids: string[] = [];
  for (let i = 0; i < plan.calls; i++) {
    const id = `${plan.prefix ?? 'call'}-${i}`;
    ids.push(id);
    const at = i * plan.spacingMs;
    const pressAt = random() < plan.pressShare ? 200 + randomInt(random, 1500) : undefined;
    const hangUpAt = random() < plan.hangUpShare ? randomInt(random, 6000) : IVR_CALL_MAX_MS;
    clock.setTimeout(() => {
      const sim = simulator();
      if (!sim) return;
      liveOf(sim);
      sim.driver.placeCall({ channelId: id });
    }, at);
    if (pressAt !== undefined)
      clock.setTimeout(() => onLine(id, (sim) => sim.driver.pressDigits(id, '5')), at + pressAt);
    clock.setTimeout(() => onLine(id, (sim) => sim.driver.hangup(id)), at + hangUpAt);
  }
  return ids;
}
