import { VirtualClock } from '@ringflow/client';
import { createSimulator, type Simulator, type SimResponse } from '@ringflow/simulator';

/** An in-process simulator on a virtual clock, with event streams recorded per connection. */
export interface Harness {
  readonly sim: Simulator;
  readonly clock: VirtualClock;
  /** Events received per connection name, in order. */
  readonly events: Record<string, Record<string, unknown>[]>;
  connect(name: string, apps: string[], subscribeAll: boolean): void;
  /** Sends a request; `query` values are strings as on the wire; `body` is parsed JSON. */
  req(method: string, path: string, query?: Record<string, string>, body?: unknown): Promise<SimResponse>;
  /** Lets virtual time pass (timers fire, promise work settles). */
  advance(ms: number): Promise<void>;
}

export function createHarness(options: Parameters<typeof createSimulator>[0] = {}): Harness {
  const clock = new VirtualClock(Date.UTC(2026, 10, 22, 3, 47, 11, 718));
  const sim = createSimulator({ clock, answerOutboundAfterMs: null, ...options });
  const events: Record<string, Record<string, unknown>[]> = {};
  return {
    sim,
    clock,
    events,
    connect(name, apps, subscribeAll) {
      const list: Record<string, unknown>[] = [];
      events[name] = list;
      const result = sim.connectEvents({ apps, subscribeAll }, (e) => list.push(e));
      if ('status' in result) throw new Error(`connect ${name}: ${JSON.stringify(result)}`);
    },
    async req(method, path, query = {}, body) {
      const response = await sim.handle({ method, path, query, ...(body === undefined ? {} : { body }) });
      await clock.advance(0);
      return response;
    },
    advance: (ms) => clock.advance(ms),
  };
}

/** One line per event: `Type channelId [state app(data)]`, for readable sequence comparisons. */
export function describeEvent(e: Record<string, unknown>): string {
  const ch = e.channel as { id: string } | undefined;
  return ch ? `${e.type} ${ch.id}` : String(e.type);
}
