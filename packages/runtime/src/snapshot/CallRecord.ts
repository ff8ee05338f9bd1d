import type { StasisStart } from '@ringflow/client';
import type { StepFailure } from '../call/StepFailure.ts';
import type { OwnedResource } from '../session/OwnedResources.ts';

/**
 * Everything needed to take over a call in another process, as plain JSON data: written after
 * each step of the call's machine to the application's {@link CallStore}, read back by the process
 * that restores the call (see `createApplication({ store })`).
 *
 * - `machine`: XState's persisted snapshot of the call's actor, its live objects (the call's
 *   handle, a flow's host, the engine's runner with its effects and timers) replaced by markers;
 * - the session's own bookkeeping: the resources the call owns (so their events reach it, and
 *   what to clean up at the end), the DTMF digits typed ahead, what the call actors under way
 *   had started, the failures reported so far.
 */
export interface CallRecord {
  /** The shape of this record; a process refuses a record of a version it does not know. */
  readonly version: 1;
  /** The session id: the id of the call's main channel. */
  readonly callId: string;
  readonly channelId: string;
  /** The `asterisk_id` of the server the call lives on. */
  readonly asteriskId: string;
  /** The server's name in the application that wrote the record. */
  readonly server: string;
  readonly app: string | undefined;
  readonly direction: 'inbound' | 'outbound';
  /** Clock time (ms) the call started. */
  readonly startedAt: number;
  /** Clock time (ms) the record was written. */
  readonly writtenAt: number;
  /** The StasisStart the machine started with (the call's handle is rebuilt from it). */
  readonly start: StasisStart;
  readonly owned: readonly OwnedResource[];
  readonly digits: string;
  /**
   * What the call actors under way had started on the server, by actor id (see `ResumeNotes`):
   * a restored actor awaits it instead of starting it again. Absent when nothing was under way.
   */
  readonly started?: Readonly<Record<string, unknown>>;
  readonly failures: number;
  readonly lastFailure?: StepFailure;
  readonly machine: unknown;
}

/**
 * Where an application keeps its calls' records so another process can take them over: in
 * memory for tests ({@link MemoryCallStore}), a shared key-value store in production (a cluster
 * uses a JetStream key-value bucket). Writes of one call come in order; a store may make them
 * asynchronous.
 *
 * @example createApplication({ ..., store: new MemoryCallStore() })
 */
export interface CallStore {
  /** Writes (or replaces) the record of a call. */
  save(record: CallRecord): void | Promise<void>;
  /** Forgets a call (it ended). */
  remove(callId: string): void | Promise<void>;
  /** Every record kept (a starting process restores those whose channels are still up). */
  list(): readonly CallRecord[] | Promise<readonly CallRecord[]>;
  /**
   * The records of one application name (optional): a per-call connection's `<app>:<channel
   * name>` names one call, and a store that can find its records without reading them all says
   * so here. Without it, the application filters `list()`.
   */
  listApplication?(application: string): readonly CallRecord[] | Promise<readonly CallRecord[]>;
  /**
   * Makes this process the only owner of a call before it takes the call over; a store shared
   * by several processes has it (see `JetStreamCallStore` in `@ringflow/cluster`). Resolves with
   * the call's latest record when this process now owns the call, or `undefined` when it does
   * not (another process claimed it first, or the call ended). A process whose call was claimed
   * by another is told by its next `save()`, which rejects with a `RingflowError` of code
   * `TAKEN_OVER`: its session then lets the call go untouched (`detached`). Without `claim`, the
   * application restores a listed record as it is.
   */
  claim?(callId: string): Promise<CallRecord | undefined>;
}

/**
 * A {@link CallStore} in this process's memory: records survive an application stopped with
 * `detach()` and restored by another application of the same process (tests, and a process that
 * restarts its application). Records are kept as JSON text, so what is restored is exactly what
 * a shared store would give back.
 */
export class MemoryCallStore implements CallStore {
  private readonly records = new Map<string, string>();

  save(record: CallRecord): void {
    this.records.set(record.callId, JSON.stringify(record));
  }

  remove(callId: string): void {
    this.records.delete(callId);
  }

  list(): CallRecord[] {
    return [...this.records.values()].map((text) => JSON.parse(text) as CallRecord);
  }

  /** The record of one call, if kept. */
  get(callId: string): CallRecord | undefined {
    const text = this.records.get(callId);
    return text === undefined ? undefined : (JSON.parse(text) as CallRecord);
  }

  get size(): number {
    return this.records.size;
  }
}
