import type { EventStream, StreamEvent } from '@ringflow/client';
import type { Observable } from 'rxjs';
import type { DeliveryCount } from './CountingServer.ts';

/**
 * Where a log's events come from: an event stream the test opened, or a target's adapter over the
 * connections a server dialled (one persistent socket, or one socket per call merged).
 */
export interface EventSource {
  readonly events$: EventStream['events$'];
  readonly problems$: Observable<{ readonly kind: string; readonly error: { readonly message: string } }>;
  /** Something changed that may end a wait without an event (a connection being dialled arrived). */
  readonly progress$?: Observable<unknown>;
  whenOpen(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Everything one event stream received, in order, and a way to be woken when more arrives.
 * Scenarios read `events` and wait through the session (`session.until`), never by sleeping.
 */
export class EventLog {
  readonly events: StreamEvent[] = [];
  /** Problems the stream reported (malformed frames, refusals): a contract run expects none. */
  readonly problems: string[] = [];
  private waiters: (() => void)[] = [];
  private closed = false;
  private count: DeliveryCount | undefined;

  constructor(
    /** Who listens: `demo-app`, `demo-app+all` (subscribeAll). */
    readonly name: string,
    private readonly stream: EventSource,
  ) {
    stream.events$.subscribe((event) => {
      this.events.push(event);
      this.wake();
    });
    stream.problems$.subscribe((problem) => {
      this.problems.push(`${problem.kind}: ${problem.error.message}`);
      this.wake();
    });
    stream.progress$?.subscribe(() => this.wake());
  }

  /** Ties the log to the server's count of events sent to its connection (simulated targets). */
  countWith(count: DeliveryCount): void {
    this.count = count;
  }

  /** Events the server sent that have not arrived yet; 0 when the target cannot tell. */
  get inFlight(): number {
    return this.closed || !this.count ? 0 : this.count.sent - this.events.length;
  }

  /** Resolves at the next arrival (or problem). */
  arrival(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The events whose type is one of `types`, in arrival order. */
  of(...types: string[]): StreamEvent[] {
    return this.events.filter((e) => types.includes(e.type));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stream.close();
    this.wake();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
