import type { Clock, TimerHandle } from '@ringflow/client';
import type { CallSession } from '../session/CallSession.ts';

/**
 * Calls whose server socket closed while they lasted, kept alive in this process until the server
 * re-dials them or a grace period passes. A real server re-opens a per-call connection at once
 * (the new socket gets `ApplicationRegistered` for the same `<app>:<channel name>` and no new
 * `StasisStart`: the call is still in the application) and hangs the call up once its reconnect
 * attempts are exhausted. Without a store only this process can continue such a call, so the
 * session is held here rather than ended `failed`.
 *
 * @example
 * const waiting = new AwaitingRedial(clock, 10_000);
 * waiting.hold(session, () => session.end('failed'));   // socket closed
 * for (const s of waiting.take('ow-call:Local/x;2')) ... // ApplicationRegistered on a new socket
 */
export class AwaitingRedial {
  private readonly held = new Map<CallSession, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {}

  /** Holds a session; `giveUp` runs if no socket takes it within the grace period. */
  hold(session: CallSession, giveUp: () => void): void {
    if (this.held.has(session)) return;
    const timer = this.clock.setTimeout(() => {
      this.held.delete(session);
      giveUp();
    }, this.graceMs);
    this.held.set(session, timer);
    void session.done.then(() => this.release(session));
  }

  /** The held sessions of an application name, no longer held (the server re-dialled them). */
  take(application: string): CallSession[] {
    const taken = [...this.held.keys()].filter((s) => s.application === application);
    for (const s of taken) this.release(s);
    return taken;
  }

  /** Whether a session waits for its server to re-dial. */
  isHeld(session: CallSession): boolean {
    return this.held.has(session);
  }

  /** Forgets every held session without giving up on them (the application stops). */
  clear(): void {
    for (const s of [...this.held.keys()]) this.release(s);
  }

  private release(session: CallSession): void {
    const timer = this.held.get(session);
    if (timer === undefined) return;
    this.clock.clearTimeout(timer);
    this.held.delete(session);
  }
}
