import type { EventGap } from '@ringflow/client';

/** What the runtime did after an event stream came back from a gap. */
export interface GapReport {
  /** The server's name. */
  readonly server: string;
  readonly asteriskId: string;
  /** When the connection was lost and came back (clock time), and after how many attempts. */
  readonly gap: EventGap;
  /**
   * Calls whose channels disappeared during the gap: their machines were told `StasisEnd`
   * (marked `recovered`; the hang-up path ran) and their sessions ended `reconciled`.
   */
  readonly endedCalls: readonly string[];
  /** Calls still on the server: their sessions go on. */
  readonly keptCalls: readonly string[];
  /**
   * Kept calls whose machines were told events they missed in the gap (a prompt that ended, a
   * dialled channel that answered...): see `CallSession.recover`.
   */
  readonly recoveredCalls: readonly string[];
  /** Kept calls the server could not be asked about: their watchdogs ask again later. */
  readonly uncheckedCalls: readonly string[];
  /** Bridge sessions whose bridges disappeared during the gap. */
  readonly endedBridges: readonly string[];
  /**
   * Channels found in one of the application's Stasis apps with no session (their StasisStart was
   * lost in the gap): each was started as a call, as if its StasisStart had arrived.
   */
  readonly adoptedCalls: readonly string[];
  /** Channels and bridges whose earlier hang-up or destroy had failed, removed again. */
  readonly removedLeftovers: readonly string[];
  /** Set when the server could not be listed; sessions were left as they were (their watchdogs ask later). */
  readonly error?: Error;
}
