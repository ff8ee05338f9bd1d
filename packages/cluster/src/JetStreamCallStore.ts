import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ErrorCode, RingflowError } from '@ringflow/client';
import type { CallRecord, CallStore } from '@ringflow/runtime';
import { type JetStreamManager, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { isKvRefusal } from './kvRefusal.ts';
import { isNatsUnavailable, retryWhileUnavailable } from './retryWhileUnavailable.ts';

/** Options of {@link JetStreamCallStore.open}. */
export interface JetStreamCallStoreOptions {
  /** A connection to NATS with JetStream enabled; the store uses it and never closes it. */
  readonly connection: NatsConnection;
  /** The key-value bucket (made when missing). Default `ringflow-calls`. */
  readonly bucket?: string;
  /**
   * This process's name in the records it owns (logs, debugging). Default
   * `<hostname>:<pid>:<random>`, so two processes never share one.
   */
  readonly owner?: string;
  /** `file` (default: records survive a NATS restart) or `memory`. */
  readonly storage?: 'file' | 'memory';
  /** Copies of the bucket in a NATS cluster (1, 3 or 5). Default 1. */
  readonly replicas?: number;
  /**
   * Records not written for this long are dropped by NATS (a call nobody drove for that long is
   * over). Default 24 hours. Milliseconds.
   */
  readonly maxAgeMs?: number;
}

/** What the bucket holds for one call. */
interface StoredCall {
  /** The process that owns the call: the only one whose writes are accepted. */
  readonly owner: string;
  readonly record: CallRecord;
  /**
   * How many claims the entry went through (absent: none). A claimer whose write was refused
   * claims again from the same owner only while this is unchanged (that owner's last writes
   * landed); a higher count means the owner took the call back meanwhile: the claim is given up.
   */
  readonly claims?: number;
}

/** This process's side of one call it owns. */
interface OwnedCall {
  /** The bucket's revision of the call's entry as this process last wrote it; none before the first write. */
  revision: number | undefined;
  /** Writes of one call go one after the other: each names the revision the previous one made. */
  chain: Promise<void>;
  /** Another process claimed the call: no more writes, and the entry is not removed. */
  lost: boolean;
  /** The entry's claim count as this process made or found it (see `StoredCall.claims`). */
  claims: number;
}

/** JetStream's "wrong last sequence": the entry changed since the revision the write named. */
const WRONG_LAST_SEQUENCE = 10071;

const DEFAULT_BUCKET = 'ringflow-calls';
/** Claims of one call tried again while its old owner's last writes keep landing. */
const CLAIM_ATTEMPTS = 5;
const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request NATS cannot answer now (a timeout, a 503 while a NATS cluster elects the
 * bucket's leader after a node died) is tried again before it fails: elections take seconds.
 */
const UNAVAILABLE_RETRY_MS = 15_000;

/**
 * A {@link CallStore} on a NATS JetStream key-value bucket, shared by every process of a cluster:
 * each call's record (`CallRecord`) is one entry, written after each step of the call's machine,
 * so that when a process dies another one restores the call from it and goes on.
 *
 * **Ownership by revision.** Every entry names its owner, and every write is conditional on the
 * entry's revision (JetStream's expected last subject sequence): a new call is written with
 * `create` (refused if the entry exists), each later write with `update` naming the revision
 * this process wrote last. A process taking a call over **claims** it from the owner its last
 * `list()` showed: it reads the entry and rewrites it, owner changed, naming the revision it read.
 * Of two processes claiming one call, the server accepts one write; the other finds a new owner
 * and leaves the call (`claim` resolves `undefined` there). The
 * previous owner, if it is still alive (a socket cut, not a crash), finds out on its next write,
 * which the server refuses and whose entry names another owner (a refused write of an entry that
 * still names this process is one of its own whose reply was lost, and goes on from there):
 * `save` rejects with a `TAKEN_OVER` RingflowError and the runtime lets
 * the call go untouched. So one process owns a call in the bucket at a time; an old owner that did
 * not see its socket close stops when the refusal of its next write comes back, and writes do not
 * hold steps back, so the steps it runs until then still send their requests (docs/cluster.md).
 *
 * @example
 * const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
 * const store = await JetStreamCallStore.open({ connection: nc });
 * createApplication({ ..., listen: { port: 8765 }, store });
 */
export class JetStreamCallStore implements CallStore {
  /** This process's name in the entries it owns. */
  readonly owner: string;
  private readonly owned = new Map<string, OwnedCall>();
  /** The bucket key of each call this store wrote, listed or found. */
  private readonly keys = new Map<string, string>();
  /** The owner of each call as this store last listed it: a claim takes the call from that one. */
  private readonly listedOwners = new Map<string, string>();
  /** The claim count of each call's entry as this store last listed it (see `StoredCall.claims`). */
  private readonly listedClaims = new Map<string, number>();

  private constructor(
    private readonly kv: KV,
    private readonly jsm: JetStreamManager,
    private readonly bucket: string,
    owner: string,
    /** The connection to NATS the store uses (other cluster parts may share it). */
    readonly connection: NatsConnection,
    /** The connection, when the store made it (see {@link connect}) and closes it. */
    private readonly ownConnection: NatsConnection | undefined,
  ) {
    this.owner = owner;
  }

  /**
   * Connects to NATS and opens the bucket; {@link close} closes that connection.
   *
   * @example
   * const store = await JetStreamCallStore.connect('nats://127.0.0.1:4222');
   */
  static async connect(
    servers: string | readonly string[],
    options: Omit<JetStreamCallStoreOptions, 'connection'> = {},
  ): Promise<JetStreamCallStore> {
    const list = typeof servers === 'string' ? [servers] : [...servers];
    if (list.length === 0)
      throw new RingflowError(
        ErrorCode.CONFIG,
        'JetStreamCallStore: no NATS address given: give one or more, e.g. nats://127.0.0.1:4222.',
      );
    for (const server of list) {
      let url: URL | undefined;
      try {
        url = new URL(server);
      } catch {}
      if (!url || (url.protocol !== 'nats:' && url.protocol !== 'tls:') || url.port === '')
        throw new RingflowError(
          ErrorCode.CONFIG,
          `JetStreamCallStore: "${server}" is not a NATS address: give nats://host:port, e.g. nats://127.0.0.1:4222.`,
        );
    }
    let connection: NatsConnection;
    try {
      // Reconnects for as long as the process lives: a worker cut from NATS lets its calls go
      // (its lease lapses) and takes its place again once NATS answers (docs/cluster.md).
      // noAsyncTraces: the client would otherwise build two errors (with their stacks) for every
      // request, in case it fails: ~11% of a classic holder's CPU (a JetStream publish is a
      // request) and ~8% of a worker's under load. Its errors keep their messages and causes.
      connection = await connect({
        servers: list,
        name: 'ringflow',
        maxReconnectAttempts: -1,
        noAsyncTraces: true,
      });
    } catch (error) {
      throw new RingflowError(
        ErrorCode.NETWORK,
        `JetStreamCallStore: cannot connect to NATS at ${list.join(', ')}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    try {
      return await JetStreamCallStore.openBucket({ ...options, connection }, connection);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /** Opens the bucket (creating it when missing) on a connection with JetStream enabled. */
  static open(options: JetStreamCallStoreOptions): Promise<JetStreamCallStore> {
    return JetStreamCallStore.openBucket(options, undefined);
  }

  private static async openBucket(
    options: JetStreamCallStoreOptions,
    ownConnection: NatsConnection | undefined,
  ): Promise<JetStreamCallStore> {
    const bucket = options.bucket ?? DEFAULT_BUCKET;
    if (!/^[-\w]+$/.test(bucket))
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamCallStore: bucket "${bucket}" is not a valid bucket name: use letters, digits, - and _.`,
      );
    const replicas = options.replicas ?? 1;
    if (replicas !== 1 && replicas !== 3 && replicas !== 5)
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamCallStore: replicas is ${String(replicas)}: give 1, 3 or 5 (copies in a NATS cluster).`,
      );
    const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    if (!Number.isFinite(maxAgeMs) || maxAgeMs < 1000)
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamCallStore: maxAgeMs is ${String(maxAgeMs)}: give at least 1000 milliseconds.`,
      );
    let kv: KV;
    try {
      kv = await new Kvm(options.connection).create(bucket, {
        history: 1,
        storage: options.storage === 'memory' ? StorageType.Memory : StorageType.File,
        replicas,
        ttl: maxAgeMs,
      });
    } catch (error) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `JetStreamCallStore: cannot open the key-value bucket "${bucket}": ${(error as Error).message} (it needs JetStream on the NATS server: nats-server -js; replicas above 1 need a NATS cluster)`,
        { cause: error },
      );
    }
    return new JetStreamCallStore(
      kv,
      await jetstreamManager(options.connection),
      bucket,
      options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      options.connection,
      ownConnection,
    );
  }

  save(record: CallRecord): Promise<void> {
    const call = this.call(record.callId);
    const write = call.chain.then(() => this.write(call, record));
    call.chain = write.catch(() => {});
    return write;
  }

  private async write(call: OwnedCall, record: CallRecord): Promise<void> {
    if (call.lost) throw this.takenOver(record.callId);
    const value = JSON.stringify({ owner: this.owner, record, claims: call.claims } satisfies StoredCall);
    let key = this.keys.get(record.callId);
    if (key === undefined) {
      key = keyOf(record.app, record.callId);
      this.keys.set(record.callId, key);
    }
    try {
      const revision = call.revision;
      call.revision = await this.retrying(() =>
        revision === undefined ? this.kv.create(key, value) : this.kv.update(key, value, revision),
      );
      return;
    } catch (error) {
      if (!isWrongRevision(error)) throw error;
      // A write of ours that failed on our side (a time-out while NATS restarted, or repeated
      // above after one) may have landed: the entry is still ours then, and this write goes on
      // from its revision. NATS
      // killed (SIGKILL) may also have lost our last writes, or the whole entry (a claim never
      // deletes one): the entry is written again.
      const stored = await this.read(key);
      if (stored === undefined && call.revision !== undefined) {
        call.revision = await this.retrying(() => this.kv.create(key, value)).catch((again: unknown) => {
          // Refused: another process made the entry meanwhile (it claimed the call). Any other
          // failure says nothing of an owner: thrown as it came, and the call stays this
          // process's (the next write tries again).
          if (!isKvRefusal(again)) throw again;
          call.lost = true;
          throw this.takenOver(record.callId, again);
        });
        return;
      }
      if (stored?.value.owner !== this.owner) {
        call.lost = true;
        throw this.takenOver(record.callId, error);
      }
      call.revision = await this.retrying(() => this.kv.update(key, value, stored.revision));
    }
  }

  async remove(callId: string): Promise<void> {
    const call = this.owned.get(callId);
    if (!call) return;
    await call.chain;
    this.owned.delete(callId);
    // Only this process's own entry: one another process claimed is its to remove.
    const key = this.keys.get(callId);
    this.keys.delete(callId);
    if (call.lost || call.revision === undefined || key === undefined) return;
    try {
      const revision = call.revision;
      await this.retrying(() => this.kv.purge(key, { previousSeq: revision }));
    } catch (error) {
      if (!isWrongRevision(error)) throw error;
      // Still this process's entry at another revision (NATS lost its last writes): removed at
      // that one; another owner's is left alone.
      const stored = await this.read(key);
      if (stored?.value.owner === this.owner) await this.purgeAt(key, stored.revision);
    }
  }

  /**
   * Removes the records of calls whose channels are gone and whose owners are gone too (dead
   * processes: nobody else would ever remove them): each is claimed first, so that of several
   * processes cleaning up, and against an owner that is alive after all, one decides, then purged.
   * Resolves with how many were removed.
   */
  async removeOrphans(callIds: readonly string[]): Promise<number> {
    let removed = 0;
    for (const callId of callIds) {
      const claimed = await this.claim(callId);
      if (!claimed) continue;
      await this.remove(callId);
      removed++;
    }
    return removed;
  }

  private async purgeAt(key: string, revision: number): Promise<void> {
    try {
      await this.retrying(() => this.kv.purge(key, { previousSeq: revision }));
    } catch (error) {
      if (!isWrongRevision(error)) throw error;
    }
  }

  list(): Promise<CallRecord[]> {
    return this.listUnder('call.>');
  }

  /**
   * Every call of the bucket with the process that owns it now (cluster mode looks for the calls
   * of processes whose lease lapsed). A later `claim` takes a call from the owner listed here.
   */
  async listOwners(): Promise<{ readonly record: CallRecord; readonly owner: string }[]> {
    const owners: { record: CallRecord; owner: string }[] = [];
    for (const record of await this.listUnder('call.>')) {
      const owner = this.listedOwners.get(record.callId);
      if (owner !== undefined) owners.push({ record, owner });
    }
    return owners;
  }

  /**
   * The owner of a call as this store's last listing (`list`, `listOwners`, `listApplication`)
   * showed it: the owner a `claim` takes the call from. Undefined for a call not listed.
   */
  listedOwner(callId: string): string | undefined {
    return this.listedOwners.get(callId);
  }

  /** True when a record of the call is in the bucket (any owner). */
  async has(callId: string): Promise<boolean> {
    return (await this.keyOfCall(callId)) !== undefined;
  }

  /**
   * The records of one application name (a per-call connection's `<app>:<channel name>`): one
   * request for the keys under that name, then one read per record, instead of reading them all.
   */
  listApplication(application: string): Promise<CallRecord[]> {
    return this.listUnder(`call.${keyPart(application)}.*`);
  }

  /** The records whose keys match `filter` (a subject filter below the bucket's prefix). */
  private async listUnder(filter: string): Promise<CallRecord[]> {
    // The keys come from the bucket's stream info (its subjects), not from `kv.keys()`: that one
    // runs a consumer which, on nats-server 2.9, could wait forever when entries were written
    // while it listed them (seen in this package's tests).
    const records: CallRecord[] = [];
    for (const key of await this.keysMatching(filter)) {
      const stored = await this.read(key);
      if (!stored) continue;
      const { record, owner } = stored.value;
      records.push(record);
      this.keys.set(record.callId, key);
      this.listedOwners.set(record.callId, owner);
      this.listedClaims.set(record.callId, stored.value.claims ?? 0);
    }
    return records;
  }

  private async keysMatching(filter: string): Promise<string[]> {
    const prefix = `$KV.${this.bucket}.`;
    const info = await this.retrying(() =>
      this.jsm.streams.info(`KV_${this.bucket}`, { subjects_filter: `${prefix}${filter}` }),
    );
    return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
  }

  /** The key of a call: known to this store, or found in the bucket by the call id's part. */
  private async keyOfCall(callId: string): Promise<string | undefined> {
    return this.keys.get(callId) ?? (await this.keysMatching(`call.*.${keyPart(callId)}`))[0];
  }

  async claim(callId: string): Promise<CallRecord | undefined> {
    const key = await this.keyOfCall(callId);
    if (key === undefined) return undefined;
    this.keys.set(callId, key);
    let stored = await this.read(key);
    // Taken from the owner the listing showed (the process believed gone), else the current one.
    const from = this.listedOwners.get(callId) ?? stored?.value.owner;
    // The owner's last writes may land while this process claims (a process handing its calls
    // over closes their sockets as its last records travel): a newer write by the same owner is
    // read again and claimed; an owner other than `from` means another process claimed first.
    /** A claim of ours went unanswered (NATS unavailable) and was repeated: it may have landed. */
    let mayHaveLanded = false;
    // As listed too: an owner that claimed the call back since (a worker rejoining) keeps it.
    const claims = this.listedClaims.get(callId) ?? stored?.value.claims ?? 0;
    for (
      let attempt = 1;
      stored && stored.value.owner === from && (stored.value.claims ?? 0) === claims;
      attempt++
    ) {
      const call = this.call(callId);
      const record = stored.value.record;
      const revision = stored.revision;
      try {
        call.revision = await this.retrying(() => {
          const claimed = this.kv.update(
            key,
            JSON.stringify({ owner: this.owner, record, claims: claims + 1 } satisfies StoredCall),
            revision,
          );
          claimed.catch((error: unknown) => {
            if (isNatsUnavailable(error)) mayHaveLanded = true;
          });
          return claimed;
        });
        call.lost = false;
        call.claims = claims + 1;
        return record;
      } catch (error) {
        this.owned.delete(callId);
        if (!isWrongRevision(error) || attempt >= CLAIM_ATTEMPTS) throw error;
      }
      stored = await this.read(key);
    }
    // The entry names this process: the claim that went unanswered did land.
    if (stored && mayHaveLanded && stored.value.owner === this.owner) {
      this.call(callId).revision = stored.revision;
      this.call(callId).claims = stored.value.claims ?? 0;
      return stored.value.record;
    }
    return undefined;
  }

  /** Waits for the writes under way, then closes the NATS connection if the store made it. */
  async close(): Promise<void> {
    await Promise.all([...this.owned.values()].map((call) => call.chain));
    await this.ownConnection?.drain();
  }

  /** The process that owns a call now, by the bucket (undefined when there is no record of it). */
  async ownerOf(callId: string): Promise<string | undefined> {
    const key = await this.keyOfCall(callId);
    return key === undefined ? undefined : (await this.read(key))?.value.owner;
  }

  private async read(key: string): Promise<{ value: StoredCall; revision: number } | undefined> {
    const entry = await this.retrying(() => this.kv.get(key));
    if (entry?.operation !== 'PUT') return undefined;
    return { value: entry.json<StoredCall>(), revision: entry.revision };
  }

  /** `work` tried again while NATS answers it cannot now (safe: every write names a revision). */
  private retrying<T>(work: () => Promise<T>): Promise<T> {
    return retryWhileUnavailable(work, UNAVAILABLE_RETRY_MS);
  }

  private call(callId: string): OwnedCall {
    let call = this.owned.get(callId);
    if (!call) {
      call = { revision: undefined, chain: Promise.resolve(), lost: false, claims: 0 };
      this.owned.set(callId, call);
    }
    return call;
  }

  private takenOver(callId: string, cause?: unknown): RingflowError {
    return new RingflowError(
      ErrorCode.TAKEN_OVER,
      `call ${callId}: another process took the call over (its record in the store changed since this process wrote it); this process must leave it alone`,
      cause === undefined ? undefined : { cause },
    );
  }
}

/**
 * The bucket key of a call: `call.<application>.<call id>`, so that the records of one
 * application name are found by one subject filter. Each part is `v` and the text in base64url
 * (a key allows only letters, digits and `-/_=.`, and names and channel ids are chosen by servers
 * and callers), or `n` when there is none.
 */
function keyOf(app: string | undefined, callId: string): string {
  return `call.${keyPart(app)}.${keyPart(callId)}`;
}

function keyPart(text: string | undefined): string {
  return text === undefined ? 'n' : `v${Buffer.from(text, 'utf8').toString('base64url')}`;
}

function isWrongRevision(error: unknown): boolean {
  const e = error as { code?: unknown; api_error?: { err_code?: unknown } } | null;
  return e?.code === WRONG_LAST_SEQUENCE || e?.api_error?.err_code === WRONG_LAST_SEQUENCE;
}
