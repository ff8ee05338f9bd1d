import { Subject } from '../rx.ts';
import type { QueueRevisions, StoredQueueStep } from './QueueRevisions.ts';
import type { QueueStep } from './QueueState.ts';

/**
 * {@link QueueRevisions} in memory, with one revision counter for all keys (as a JetStream
 * bucket's): for tests where several applications in one process stand for the processes of a
 * cluster. Writes are answered, and watchers told, on a later turn (as over a network).
 */
export class MemoryQueueRevisions implements QueueRevisions {
  readonly #entries = new Map<string, StoredQueueStep>();
  readonly #changes = new Subject<{ key: string; stored: StoredQueueStep }>();
  #revision = 0;
  /** Writes accepted so far (tests count them). */
  writes = 0;

  async create(server: string, name: string, step: QueueStep): Promise<boolean> {
    await Promise.resolve();
    const key = keyOf(server, name);
    if (this.#entries.has(key)) return false;
    this.#write(key, step);
    return true;
  }

  async update(server: string, name: string, step: QueueStep, revision: number): Promise<number | undefined> {
    await Promise.resolve();
    const key = keyOf(server, name);
    if (this.#entries.get(key)?.revision !== revision) return undefined;
    return this.#write(key, step);
  }

  watch(server: string, name: string, seen: (stored: StoredQueueStep) => void): () => void {
    const key = keyOf(server, name);
    const subscription = this.#changes.subscribe((change) => {
      if (change.key === key) queueMicrotask(() => seen(change.stored));
    });
    const current = this.#entries.get(key);
    if (current) queueMicrotask(() => seen(current));
    return () => subscription.unsubscribe();
  }

  #write(key: string, step: QueueStep): number {
    // A copy, as a store holding JSON would keep it.
    const stored = { step: structuredClone(step), revision: ++this.#revision };
    this.#entries.set(key, stored);
    this.writes++;
    this.#changes.next({ key, stored });
    return stored.revision;
  }
}

function keyOf(server: string, name: string): string {
  return `${server}\u0000${name}`;
}
