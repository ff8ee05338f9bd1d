import type { Clock, StasisStart } from '@ringflow/client';
import type { Logger } from 'pino';
import { assign, fromPromise, setup } from 'xstate';
import { type LeaseWrites, reportOnce } from './leaseWrites.ts';

/** Every this many trusted listings, the store is also searched for calls of gone workers. */
export const FULL_SCAN_TURNS = 10;

/** What the worker role's machine needs from its process. */
export interface WorkerRoleDeps {
  /** Writes of this worker's lease entry (`worker.<name>`). */
  readonly writes: LeaseWrites;
  /** The lease's value (this worker's name and load), written at each renewal. */
  readonly value: () => string;
  /** Lists the live workers (their leases). */
  readonly list: () => Promise<ReadonlySet<string>>;
  readonly renewMs: number;
  /** The lease bucket's TTL. */
  readonly ttlMs: number;
  /** The lease is given up this long before it can expire on the server. */
  readonly marginMs: number;
  /** A turn begins (every `renewMs`): the holder tries again what failed (a gap marker). */
  readonly turn: () => void;
  /**
   * The live workers were listed. `trusted`: this worker's own lease was renewed in this turn,
   * so an absence means something (else NATS restarted or was away: every lease may have lapsed).
   * `fullScan`: every {@link FULL_SCAN_TURNS} trusted turns, a search for orphans is due anyway.
   */
  readonly listed: (live: ReadonlySet<string>, turn: { trusted: boolean; fullScan: boolean }) => void;
  /** Listing or renewing failed: absences count again from scratch. */
  readonly untrusted: () => void;
  /** The lease is lost: every call must be let go at once (the others may claim them from now on). */
  readonly fence: () => void;
  /** The lease is held again after a fence: take back the calls nobody claimed, start the refused ones. */
  readonly rejoined: (refused: readonly StasisStart[]) => void;
  readonly logger: Logger;
  readonly clock: Clock;
}

interface WorkerContext {
  readonly revision: number | undefined;
  /** When the last accepted write of the lease was sent (this clock). */
  readonly acceptedAt: number;
  /** When the last renewal was sent. */
  readonly sentAt: number;
  /** New calls assigned here whose StasisStart came while fenced: offered again on rejoining. */
  readonly refused: readonly StasisStart[];
  /** Trusted listings so far (every {@link FULL_SCAN_TURNS}th is a full scan). */
  readonly turns: number;
  readonly failing: string | undefined;
}

export type WorkerEvent = { type: 'refused'; start: StasisStart } | { type: 'stop' };

interface Written {
  readonly revision: number | undefined;
  readonly sentAt: number;
}

/**
 * A classic-cluster worker's lease and turns as a statechart (started once the lease is taken):
 *
 * - `live.listing` → the live workers are listed (absences count) → `live.idle` → `renewMs`
 *   after the last renewal was sent, `live.renewing`: accepted, it re-enters `live` (its
 *   deadline re-armed, the workers listed again); refused (another process wrote the entry) →
 *   `fenced`; failed (NATS away) → logged, absences distrusted, tried again next turn;
 * - `live`'s deadline (TTL − margin after the last accepted write was sent) is the self-fencing:
 *   a renewal that hangs or fails never re-arms it, so the worker lets its calls go before its
 *   entry can expire on the server and another worker claim them;
 * - `fenced`: every call let go on entry; new calls assigned here are kept (`refused`); every
 *   turn the lease is `rejoining` (create, accepted once the entry expired) and the workers are
 *   listed untrusted; on rejoining → `live`, its own unclaimed calls taken back and the refused
 *   calls offered again;
 * - `stop` → `leaving` (the entry deleted: the others take the calls at once) → `stopped`.
 */
export function workerRoleMachine(deps: WorkerRoleDeps) {
  const { clock, logger } = deps;
  const write = async (work: () => Promise<number | undefined>): Promise<Written> => {
    const sentAt = clock.now();
    return { revision: await work(), sentAt };
  };
  return setup({
    types: {
      context: {} as WorkerContext,
      events: {} as WorkerEvent,
      input: {} as { readonly revision: number; readonly acceptedAt: number },
    },
    actors: {
      list: fromPromise(() => deps.list()),
      renew: fromPromise(({ input }: { input: { revision: number } }) =>
        write(() => deps.writes.update(deps.value(), input.revision)),
      ),
      rejoin: fromPromise(() => write(() => deps.writes.create(deps.value()))),
      remove: fromPromise(({ input }: { input: { revision: number | undefined } }) =>
        input.revision === undefined ? Promise.resolve(true) : deps.writes.remove(input.revision),
      ),
    },
    delays: {
      turn: deps.renewMs,
      renewDue: ({ context }) => Math.max(0, context.sentAt + deps.renewMs - clock.now()),
      deadline: ({ context }) => Math.max(0, context.acceptedAt + deps.ttlMs - deps.marginMs - clock.now()),
    },
    actions: {
      lose: assign((_, params: { why: string }) => {
        logger.error(
          { why: params.why },
          'lost this worker lease: the other processes may take its calls over; letting them go',
        );
        return { revision: undefined };
      }),
      distrust: () => deps.untrusted(),
      report: assign({
        failing: ({ context, event }, params: { what: string }) =>
          reportOnce(
            logger,
            context.failing,
            (event as { error?: unknown }).error,
            `worker lease: ${params.what} failed (tried again every turn)`,
          ),
      }),
      leaveFailed: ({ event }) =>
        logger.warn(
          { err: (event as { error?: unknown }).error },
          'could not delete this worker lease (the others take its calls once it expires)',
        ),
    },
  }).createMachine({
    id: 'worker',
    context: ({ input }) => ({
      revision: input.revision,
      acceptedAt: input.acceptedAt,
      sentAt: input.acceptedAt,
      refused: [],
      turns: 0,
      failing: undefined,
    }),
    initial: 'live',
    on: { stop: '.leaving' },
    states: {
      live: {
        id: 'live',
        after: {
          deadline: {
            target: 'fenced',
            actions: {
              type: 'lose',
              params: ({ context }) => ({
                why: `no renewal accepted for ${clock.now() - context.acceptedAt} ms (the lease lives ${deps.ttlMs} ms)`,
              }),
            },
          },
        },
        initial: 'listing',
        states: {
          listing: {
            invoke: {
              src: 'list',
              onDone: {
                target: 'idle',
                actions: [
                  ({ context, event }) =>
                    deps.listed(event.output, {
                      trusted: true,
                      fullScan: context.turns % FULL_SCAN_TURNS === 0,
                    }),
                  assign({ turns: ({ context }) => context.turns + 1, failing: undefined }),
                ],
              },
              onError: {
                target: 'idle',
                actions: ['distrust', { type: 'report', params: { what: 'listing the workers' } }],
              },
            },
          },
          idle: { after: { renewDue: 'renewing' } },
          renewing: {
            entry: [assign({ sentAt: () => clock.now() }), () => deps.turn()],
            invoke: {
              src: 'renew',
              input: ({ context }) => ({ revision: context.revision! }),
              onDone: [
                {
                  guard: ({ event }) => event.output.revision !== undefined,
                  target: '#live',
                  reenter: true,
                  actions: assign({
                    revision: ({ event }) => event.output.revision,
                    acceptedAt: ({ event }) => event.output.sentAt,
                  }),
                },
                {
                  target: '#worker.fenced',
                  actions: {
                    type: 'lose',
                    params: { why: 'another process holds the lease now (the renewal was refused)' },
                  },
                },
              ],
              onError: {
                target: 'idle',
                actions: ['distrust', { type: 'report', params: { what: 'the renewal' } }],
              },
            },
          },
        },
      },
      fenced: {
        entry: () => deps.fence(),
        on: {
          refused: {
            actions: assign({ refused: ({ context, event }) => [...context.refused, event.start] }),
          },
        },
        initial: 'waiting',
        states: {
          waiting: { after: { turn: 'rejoining' } },
          rejoining: {
            entry: () => deps.turn(),
            invoke: {
              src: 'rejoin',
              onDone: [
                {
                  guard: ({ event }) => event.output.revision !== undefined,
                  target: '#live',
                  actions: [
                    () => logger.warn('worker lease taken again'),
                    assign({
                      revision: ({ event }) => event.output.revision,
                      acceptedAt: ({ event }) => event.output.sentAt,
                      sentAt: ({ event }) => event.output.sentAt,
                      failing: undefined,
                    }),
                    ({ context }) => deps.rejoined(context.refused),
                    assign({ refused: [] }),
                  ],
                },
                // The entry is still there (it has not expired on the server yet).
                { target: 'listing' },
              ],
              onError: {
                target: 'listing',
                actions: ['distrust', { type: 'report', params: { what: 'taking the lease again' } }],
              },
            },
          },
          listing: {
            invoke: {
              src: 'list',
              onDone: {
                target: 'waiting',
                actions: ({ event }) => deps.listed(event.output, { trusted: false, fullScan: false }),
              },
              onError: {
                target: 'waiting',
                actions: ['distrust', { type: 'report', params: { what: 'listing the workers' } }],
              },
            },
          },
        },
      },
      leaving: {
        invoke: {
          src: 'remove',
          input: ({ context }) => ({ revision: context.revision }),
          onDone: 'stopped',
          onError: { target: 'stopped', actions: 'leaveFailed' },
        },
      },
      stopped: { type: 'final' },
    },
  });
}
