import type { Clock, TimerHandle } from '@ringflow/client';
import type { ServerLink } from './ServerLink.ts';

/**
 * Removes again, `sweepMs` after a cleanup left a channel or bridge behind on a server, what the
 * server still has of the leftovers (one sweep per server at a time; 0: only after gaps).
 */
export class LeftoverSweeps {
  private readonly sweeps = new Map<ServerLink, TimerHandle>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly sweepMs: number,
  ) {}

  /** A cleanup on `link` left something behind: sweep it after `sweepMs`. */
  schedule(link: ServerLink): void {
    if (this.sweepMs === 0 || this.stopped || this.sweeps.has(link)) return;
    const timer = this.clock.setTimeout(() => {
      this.sweeps.delete(link);
      if (this.stopped) return;
      const retried = link.removeLeftovers();
      if (retried.length > 0) link.logger.info({ leftovers: retried }, 'removing leftovers again');
    }, this.sweepMs);
    this.sweeps.set(link, timer);
  }

  /** No more sweeps (the application stops; its clock's timers are cleared with it). */
  stop(): void {
    this.stopped = true;
    this.sweeps.clear();
  }
}
