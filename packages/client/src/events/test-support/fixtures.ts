import { readFileSync } from 'node:fs';
import type { StreamEvent } from '../StreamEvent.ts';

/** One recorded WebSocket message of `fixtures/real-events.jsonl`. */
export interface RecordedEvent {
  readonly seq: number;
  readonly conn: string;
  readonly scenario: string;
  readonly event: StreamEvent;
}

/** One hand-written event of `fixtures/crafted-events.jsonl`. */
export interface CraftedEvent {
  readonly note: string;
  readonly event: StreamEvent;
}

function readLines<T>(name: string): T[] {
  const text = readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The events recorded from a real server, in the order they arrived. */
export function recordedEvents(): RecordedEvent[] {
  return readLines<RecordedEvent>('real-events.jsonl');
}

/** The recorded event with this sequence number (throws when the fixture lacks it). */
export function recordedEvent(seq: number): StreamEvent {
  const found = recordedEvents().find((r) => r.seq === seq);
  if (!found) throw new Error(`fixtures/real-events.jsonl has no event with seq ${seq}`);
  return found.event;
}

/** The hand-written event of this type (the first one). */
export function craftedEvent(type: string): StreamEvent {
  const found = readLines<CraftedEvent>('crafted-events.jsonl').find((c) => c.event.type === type);
  if (!found) throw new Error(`fixtures/crafted-events.jsonl has no ${type} event`);
  return found.event;
}
