import { ErrorCode, RingflowError } from '@ringflow/client';
import type { Logger } from 'pino';
import type { CallRecord, CallStore } from './CallRecord.ts';

/**
 * Writes one call's record to the application's store: at most once per turn of the event loop
 * however many steps the machine took in it (the record is built when written, so it is the
 * latest), and removes it when the call ends. A store that fails is logged, never thrown into
 * the call: the call goes on, only its takeover by another process is at risk. A store that says
 * another process took the call over (`TAKEN_OVER`) calls `takenOver`: the session lets it go.
 */
export class RecordWriter {
  private due = false;
  private closed = false;
  private warned = false;

  constructor(
    private readonly store: CallStore,
    private readonly callId: string,
    private readonly build: () => CallRecord | undefined,
    private readonly logger: () => Logger,
    private readonly takenOver: (error: RingflowError) => void = () => {},
  ) {}

  /** Something in the record changed: write it once the current turn is over. */
  changed(): void {
    if (this.due || this.closed) return;
    this.due = true;
    queueMicrotask(() => {
      this.due = false;
      if (this.closed) return;
      this.write();
    });
  }

  /**
   * Writes now a record whose change is still waiting for its turn (a process handing its calls
   * over writes them before it lets go). A record already written is not written again: another
   * process may have taken the call over from it meanwhile.
   */
  flush(): void {
    if (this.closed || !this.due) return;
    this.write();
  }

  /** Builds the record and saves it; a record that cannot be built is a failure like the store's. */
  private write(): void {
    this.attempt('save', () => {
      const record = this.build();
      return record ? this.store.save(record) : undefined;
    });
  }

  /** No more writes; with `remove`, the record is deleted (the call ended here). */
  close(remove: boolean): void {
    if (this.closed) return;
    this.closed = true;
    if (remove) this.attempt('remove', () => this.store.remove(this.callId));
  }

  private attempt(what: 'save' | 'remove', work: () => void | Promise<void>): void {
    const failed = (error: unknown) => {
      if (error instanceof RingflowError && error.code === ErrorCode.TAKEN_OVER) {
        this.closed = true;
        this.takenOver(error);
        return;
      }
      if (this.warned) return;
      this.warned = true;
      this.logger().warn(
        { err: error, what },
        'could not write the call record (building it, or the store); the call goes on, but another process could not take it over',
      );
    };
    try {
      const done = work();
      if (done) done.catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
