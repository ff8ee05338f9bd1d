import type { QueueSettings, RingStrategy } from '@ringflow/runtime';
import { parseDuration } from '../schema/s.ts';
import type { QueueDocument } from './flowSchema.ts';

/** A queue of a flow document (`queues:`) as the runtime's settings, with the documented defaults. */
export function queueSettingsOf(queue: QueueDocument): QueueSettings {
  const ms = (value: QueueDocument['wrapUp'], fallback: number) =>
    value === undefined ? fallback : (parseDuration(value) ?? fallback);
  return {
    agents: [...queue.agents],
    strategy: (queue.strategy ?? 'ringAll') as RingStrategy,
    ringTimeoutMs: ms(queue.ringTimeout, 15_000),
    wrapUpMs: ms(queue.wrapUp, 10_000),
    retryMs: ms(queue.retry, 5_000),
    ...(queue.musicClass ? { musicClass: queue.musicClass } : {}),
  };
}
