import { JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { CallRecord } from '@ringflow/runtime';

/**
 * An in-memory JetStream key-value bucket with NATS's revision rules, seen by several processes
 * through rules that hold back, fail or lose the answer of each one's requests: the takeover
 * tests (`classic/takeoverMachine.test.ts`) make claims race with it, on a virtual clock.
 */

/** One request of a process to the bucket, as a rule sees it. */
export interface BucketRequest {
  readonly process: string;
  readonly method: 'get' | 'create' | 'update' | 'purge' | 'info';
  readonly key: string;
}

/**
 * What a rule makes of a request: `undefined` passes it; an error fails it before it reaches the
 * bucket; `{ landed }` applies it and then fails its answer with `landed` (the answer was lost);
 * a promise holds it until it resolves.
 */
export type Verdict = undefined | Error | { readonly landed: Error } | Promise<void>;

/**
 * The bucket: revisions, `create` (refused over a live entry), `update` (refused unless it names
 * the entry's revision), `purge`, and the stream info (`subjects_filter`) the store lists keys by.
 */
export class FakeBucket {
  constructor(private readonly name: string) {}

  private seq = 0;
  readonly entries = new Map<string, { value: string; revision: number; operation: 'PUT' | 'PURGE' }>();
  /** Applied to every request of every process, in order; the first verdict that is not `undefined` wins. */
  readonly rules: ((request: BucketRequest) => Verdict)[] = [];

  /** A process's view of the bucket: its KV and its stream info, through {@link rules}. */
  view(process: string): { kv: KV; jsm: JetStreamManager } {
    const through = async <T>(method: BucketRequest['method'], key: string, work: () => T): Promise<T> => {
      let verdict: Verdict;
      for (const rule of this.rules) {
        verdict = rule({ process, method, key });
        if (verdict !== undefined) break;
      }
      if (verdict instanceof Error) throw verdict;
      if (verdict instanceof Promise) await verdict;
      const answer = work();
      if (verdict !== undefined && 'landed' in verdict) throw verdict.landed;
      return answer;
    };
    const kv = {
      get: (key: string) => through('get', key, () => this.get(key)),
      create: (key: string, value: string) => through('create', key, () => this.create(key, value)),
      update: (key: string, value: string, revision: number) =>
        through('update', key, () => this.update(key, value, revision)),
      purge: (key: string, options?: { previousSeq?: number }) =>
        through('purge', key, () => this.purge(key, options?.previousSeq)),
    };
    const jsm = {
      streams: {
        info: (_stream: string, options: { subjects_filter: string }) =>
          through('info', options.subjects_filter, () => this.info(options.subjects_filter)),
      },
    };
    return { kv: kv as unknown as KV, jsm: jsm as unknown as JetStreamManager };
  }

  /** The owner the bucket names for a call now. */
  ownerOf(callId: string): string | undefined {
    for (const entry of this.entries.values()) {
      if (entry.operation !== 'PUT') continue;
      const stored = JSON.parse(entry.value) as { owner: string; record: CallRecord };
      if (stored.record.callId === callId) return stored.owner;
    }
    return undefined;
  }

  private get(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return null;
    return { ...entry, json: <T>() => JSON.parse(entry.value) as T, string: () => entry.value };
  }

  private create(key: string, value: string): number {
    const entry = this.entries.get(key);
    if (entry?.operation === 'PUT') throw wrongLastSequence(entry.revision);
    return this.write(key, value, 'PUT');
  }

  private update(key: string, value: string, revision: number): number {
    const entry = this.entries.get(key);
    if (entry?.revision !== revision) throw wrongLastSequence(entry?.revision ?? 0);
    return this.write(key, value, 'PUT');
  }

  private purge(key: string, previousSeq: number | undefined): void {
    const entry = this.entries.get(key);
    if (previousSeq !== undefined && entry?.revision !== previousSeq)
      throw wrongLastSequence(entry?.revision ?? 0);
    this.write(key, '', 'PURGE');
  }

  private info(filter: string) {
    const prefix = `$KV.${this.name}.`;
    const pattern = new RegExp(
      `^${filter
        .slice(prefix.length)
        .split('.')
        .map((part) => (part === '>' ? '.+' : part === '*' ? '[^.]+' : part.replace(/[^\w]/g, '\\$&')))
        .join('\\.')}$`,
    );
    const subjects: Record<string, number> = {};
    for (const key of this.entries.keys()) if (pattern.test(key)) subjects[`${prefix}${key}`] = 1;
    return { state: { subjects } };
  }

  private write(key: string, value: string, operation: 'PUT' | 'PURGE'): number {
    this.entries.set(key, { value, revision: ++this.seq, operation });
    return this.seq;
  }
}

/** JetStream's refusal of a write naming another revision than the entry's. */
function wrongLastSequence(last: number): Error {
  return new JetStreamApiError({ err_code: 10071, code: 400, description: `wrong last sequence: ${last}` });
}

/** Holds every request matching `match` until {@link release}; `held` lists them in arrival order. */
export function hold(bucket: FakeBucket, match: (request: BucketRequest) => boolean) {
  const held: { request: BucketRequest; release: () => void }[] = [];
  let holding = true;
  bucket.rules.push((request) => {
    if (!holding || !match(request)) return undefined;
    return new Promise<void>((release) => held.push({ request, release }));
  });
  return {
    held,
    /** Lets the held request of `process` for `key` through. */
    release: (process: string, key?: string) => {
      const at = held.findIndex(
        (h) => h.request.process === process && (key === undefined || h.request.key === key),
      );
      if (at < 0) throw new Error(`no request of ${process} held${key ? ` for ${key}` : ''}`);
      held.splice(at, 1)[0]!.release();
    },
    stop: () => {
      holding = false;
      for (const h of held.splice(0)) h.release();
    },
  };
}
