/**
 * Turns in a row (each with this worker's own lease renewed) a worker must be missing before its
 * calls are taken: a worker that lost its lease to a NATS restart takes it again within a turn.
 */
export const GONE_AFTER_TURNS = 2;

/**
 * Which workers of the cluster are gone, judged from the workers' leases listed at each turn of
 * this worker: a worker is gone once it has been missing for {@link GONE_AFTER_TURNS} turns in a
 * row in which this worker renewed its own lease (after a NATS restart every lease lapses at once
 * and every worker takes its own again within a turn, so a turn without this worker's own renewal
 * proves nothing: {@link distrust}); a worker never seen live is gone once this worker has renewed
 * long enough (`settleTurns`) that any live worker's lease would have been seen.
 *
 * @example
 * const absences = new WorkerAbsences(me, settleTurns);
 * if (absences.observe(before, live)) takeOverTheirCalls((w) => absences.isGone(w));
 */
export class WorkerAbsences {
  private live: ReadonlySet<string> = new Set();
  /** Workers seen live before and missing since, with the trusted turns they have been missing. */
  private readonly absent = new Map<string, number>();
  /** Turns in a row in which this worker renewed its own lease. */
  private healthyTurns = 0;

  constructor(
    private readonly me: string,
    /** Trusted turns after which a worker never seen live counts as gone. */
    private readonly settleTurns: number,
  ) {}

  /** The workers whose lease this process saw at its last turn (itself included). */
  get liveWorkers(): ReadonlySet<string> {
    return this.live;
  }

  /** A listing of the leases in a turn where this worker's own lease was not renewed: only noted. */
  listed(live: ReadonlySet<string>): void {
    this.live = live;
  }

  /**
   * A listing of the leases in a turn where this worker renewed its own: absences count. True
   * when a worker became gone in this turn.
   */
  observe(live: ReadonlySet<string>): boolean {
    const before = this.live;
    this.live = live;
    this.healthyTurns++;
    for (const worker of before)
      if (!live.has(worker) && !this.absent.has(worker)) this.absent.set(worker, 0);
    let newlyGone = false;
    for (const [worker, turns] of this.absent) {
      if (live.has(worker)) this.absent.delete(worker);
      else {
        this.absent.set(worker, turns + 1);
        if (turns + 1 === GONE_AFTER_TURNS) newlyGone = true;
      }
    }
    return newlyGone;
  }

  /** Forgets who was seen missing: absences count again from the next turn this worker renews. */
  distrust(): void {
    this.healthyTurns = 0;
    this.absent.clear();
  }

  /** Whether a worker is gone (see the class comment); never this worker itself. */
  isGone(worker: string): boolean {
    if (worker === this.me || this.live.has(worker)) return false;
    const absent = this.absent.get(worker);
    if (absent !== undefined) return absent >= GONE_AFTER_TURNS;
    return this.healthyTurns >= this.settleTurns;
  }
}
