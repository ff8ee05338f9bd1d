import type { Clock, StasisStart } from '@ringflow/client';
import type { Logger } from 'pino';
import { type Actor, createActor, waitFor } from 'xstate';
import type { WorkerAbsences } from '../WorkerAbsences.ts';
import type { WorkerDirectory } from '../WorkerDirectory.ts';
import { workerRoleMachine } from './workerRoleMachine.ts';

export interface WorkerRoleOptions {
  readonly directory: WorkerDirectory;
  /** Which workers are gone, from the listings (see {@link WorkerAbsences}). */
  readonly absences: WorkerAbsences;
  /** The revision of this worker's lease as just taken, and when that write was sent. */
  readonly joined: { readonly revision: number; readonly at: number };
  readonly ttlMs: number;
  readonly renewMs: number;
  /** The lease is given up this long before it can expire on the server. */
  readonly marginMs: number;
  /** What the worker's turns set going in the other roles. */
  readonly hooks: {
    /** A turn begins. */
    readonly turn: () => void;
    /** Workers became gone: their calls with no record are assigned again. */
    readonly workersLeft: () => void;
    /** A search for the calls of gone workers is due. */
    readonly search: () => void;
    /** Lets every call go untouched; resolves with how many. */
    readonly detachCalls: () => number;
    /** The worker is fenced (the takeover role pauses). */
    readonly fenced: () => void;
    /** The lease is held again; the calls refused meanwhile are to be offered again. */
    readonly rejoined: (refused: readonly StasisStart[]) => void;
  };
  readonly logger: Logger;
  readonly clock: Clock;
}

/**
 * The worker role of a classic-cluster process: its lease renewed every turn, the other workers
 * listed (their absences counted), and, when its own lease is lost, every call let go and new
 * ones kept until it holds the lease again. The turns are the statechart
 * `workerRoleMachine.ts`, run on the given clock.
 *
 * @example
 * const role = new WorkerRole({ directory, absences, joined, ttlMs, renewMs, marginMs, hooks, logger, clock });
 * role.start();
 * if (role.fenced) role.refuse(start);
 */
export class WorkerRole {
  private readonly actor: Actor<ReturnType<typeof workerRoleMachine>>;

  constructor(options: WorkerRoleOptions) {
    const { directory, absences, hooks, logger } = options;
    const machine = workerRoleMachine({
      writes: directory.lease,
      value: () => directory.leaseValue(),
      list: () => directory.list(),
      renewMs: options.renewMs,
      ttlMs: options.ttlMs,
      marginMs: options.marginMs,
      turn: hooks.turn,
      listed: (live, { trusted, fullScan }) => {
        if (!trusted) {
          // This worker's own lease was not renewed (NATS away or restarted: every lease may
          // have lapsed at once): the others' absence means nothing yet.
          absences.listed(live);
          absences.distrust();
          return;
        }
        const newlyGone = absences.observe(live);
        if (newlyGone) hooks.workersLeft();
        if (newlyGone || fullScan) hooks.search();
      },
      untrusted: () => absences.distrust(),
      fence: () => {
        absences.distrust();
        hooks.fenced();
        const calls = hooks.detachCalls();
        logger.warn(
          { calls },
          'worker lease lost: let every call go untouched; those nobody claims are taken back when the lease is',
        );
      },
      rejoined: hooks.rejoined,
      logger,
      clock: options.clock,
    });
    this.actor = createActor(machine, {
      clock: options.clock,
      input: { revision: options.joined.revision, acceptedAt: options.joined.at },
    });
  }

  /** Starts the turns: the workers listed now, the lease renewed every `renewMs`. */
  start(): void {
    this.actor.start();
  }

  /** True while this worker has lost its lease and let its calls go, until it holds it again. */
  get fenced(): boolean {
    return this.actor.getSnapshot().matches('fenced');
  }

  /** The role's state (for logs and tests): `{"live":"idle"}`, `{"fenced":"rejoining"}`, … */
  get state(): string {
    return JSON.stringify(this.actor.getSnapshot().value);
  }

  /** A new call assigned here reached this worker while fenced: offered again on rejoining. */
  refuse(start: StasisStart): void {
    this.actor.send({ type: 'refused', start });
  }

  /** Stops the turns and deletes this worker's lease (the others take its calls at once). */
  async stop(): Promise<void> {
    const snapshot = this.actor.getSnapshot();
    if (snapshot.status !== 'active') return;
    this.actor.send({ type: 'stop' });
    await waitFor(this.actor, (s) => s.status === 'done');
  }
}
