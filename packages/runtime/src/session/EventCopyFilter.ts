import type { StreamEvent } from '@ringflow/client';

/** How many recent events a filter remembers; copies of one event arrive close together. */
const DEFAULT_WINDOW = 32;

/** The application a copy of an event is addressed to. */
export function addressedTo(event: StreamEvent): string | undefined {
  // Every event has it but MissingParams (a reply, not an event).
  return 'application' in event && typeof event.application === 'string' ? event.application : undefined;
}

/** The event without its `application` field: what every copy of one published event shares. */
export function eventFingerprint(event: StreamEvent): string {
  return JSON.stringify(event, (key, value) => (key === 'application' ? undefined : value));
}

/**
 * Lets through one copy of each event a server published. When one socket serves several
 * applications, the server sends one copy of an event per application concerned, identical but
 * for `application` (same `timestamp`), and not always next to each other: each application has
 * its own queue on the server. The filter remembers the last events it let through and refuses a
 * copy of one of them addressed to another application.
 *
 * Copies addressed to the same application are let through: the server itself repeats some events
 * to `subscribeAll` applications, and an owner sees them as the server sent them.
 *
 * @example
 * const filter = new EventCopyFilter();
 * filter.accept({ type: 'ChannelDtmfReceived', digit: '1', application: 'sales', ... }); // true
 * filter.accept({ type: 'ChannelDtmfReceived', digit: '1', application: 'support', ... }); // false
 */
export class EventCopyFilter {
  /** Fingerprint -> application of the copy let through, oldest first. */
  private readonly recent = new Map<string, string | undefined>();
  private readonly window: number;

  constructor(window = DEFAULT_WINDOW) {
    this.window = window;
  }

  /** True for the first copy of an event; false for a copy of an event already let through for another application. */
  accept(event: StreamEvent): boolean {
    const key = eventFingerprint(event);
    if (this.recent.has(key)) return this.recent.get(key) === addressedTo(event);
    this.recent.set(key, addressedTo(event));
    if (this.recent.size > this.window) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    return true;
  }

  /** Events remembered (bounded by the window). */
  get size(): number {
    return this.recent.size;
  }
}
