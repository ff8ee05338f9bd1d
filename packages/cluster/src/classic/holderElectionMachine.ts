import type { Clock } from '@ringflow/client';
import type { Logger } from 'pino';
import { assign, fromPromise, setup } from 'xstate';
import { type LeaseWrites, reportOnce } from './leaseWrites.ts';

/** The lease entry as a standby reads it. */
export interface LeaseEntry {
  readonly revision: number;
  readonly value: string;
}

/** What the election machine needs from its process. */
export interface HolderElectionDeps {
  readonly writes: LeaseWrites;
  /** Reads the entry (undefined when missing or deleted). */
  readonly read: () => Promise<LeaseEntry | undefined>;
  readonly me: string;
  readonly renewMs: number;
  readonly takeoverMs: number;
  readonly watchMs: number;
  readonly held: () => void;
  readonly lost: (why: string) => void;
  readonly logger: Logger;
  readonly clock: Clock;
}

interface ElectionContext {
  /** The revision this process wrote last (while holding or releasing). */
  readonly revision: number | undefined;
  /** When the last write accepted was sent (this clock). */
  readonly acceptedAt: number;
  /** When the last renewal was sent: the next one goes `renewMs` after it. */
  readonly sentAt: number;
  /** The entry as a standby last read it, and since when (this clock) its revision has not moved. */
  readonly seen: (LeaseEntry & { readonly since: number }) | undefined;
  /** The last kind of failure logged (one line per kind). */
  readonly failing: string | undefined;
}

export type ElectionEvent = { type: 'release' } | { type: 'stop' };

/** A write sent at `sentAt`: its revision, or undefined when refused. */
interface Written {
  readonly revision: number | undefined;
  readonly sentAt: number;
}

const NO_ANSWER = 'event connection lease: NATS did not answer (tried again every turn)';

/**
 * The event connection holder's election as a statechart (the rules: `HolderElection`):
 *
 * - `watching` → every `watchMs`, `reading` the entry: missing → `acquiring` (create); its
 *   revision unchanged for `takeoverMs`, or written last by this process → `takingOver` (update
 *   naming that revision: of several standbys one wins); else back to `watching`;
 * - `holding.waiting` → `renewMs` after the last renewal was sent, `holding.renewing`: an
 *   accepted renewal re-enters `holding`, which re-arms its deadline; a refused one means another
 *   process holds the lease now: `lost`, back to `watching`; a failed one is tried again;
 * - `holding`'s deadline, `takeoverMs − renewMs` after the last accepted write was sent, is the
 *   self-fencing: a renewal that hangs or fails never re-arms it, so the holder lets the lease go
 *   before any standby (which waits `takeoverMs` from a later moment) can take it;
 * - `release` → `releasing` (the entry deleted: a standby takes it at its next read) →
 *   `watching`; `stop` → `stopping` (the same) → `stopped`.
 *
 * Every NATS failure is logged once per kind and tried again at the next turn.
 */
export function holderElectionMachine(deps: HolderElectionDeps) {
  const { clock, logger } = deps;
  const write = async (work: () => Promise<number | undefined>): Promise<Written> => {
    const sentAt = clock.now();
    return { revision: await work(), sentAt };
  };
  const sawEntry = (context: ElectionContext, entry: LeaseEntry) =>
    context.seen?.revision === entry.revision ? context.seen : { ...entry, since: clock.now() };
  return setup({
    types: { context: {} as ElectionContext, events: {} as ElectionEvent },
    actors: {
      read: fromPromise(() => deps.read()),
      create: fromPromise(() => write(() => deps.writes.create(deps.me))),
      update: fromPromise(({ input }: { input: { revision: number } }) =>
        write(() => deps.writes.update(deps.me, input.revision)),
      ),
      remove: fromPromise(({ input }: { input: { revision: number | undefined } }) =>
        input.revision === undefined ? Promise.resolve(true) : deps.writes.remove(input.revision),
      ),
    },
    delays: {
      watch: deps.watchMs,
      renewDue: ({ context }) => Math.max(0, context.sentAt + deps.renewMs - clock.now()),
      deadline: ({ context }) =>
        Math.max(0, context.acceptedAt + deps.takeoverMs - deps.renewMs - clock.now()),
    },
    actions: {
      announce: (_, params: { why: string }) => {
        logger.info({ why: params.why }, 'took the event connection lease');
        deps.held();
      },
      lose: (_, params: { why: string }) => deps.lost(params.why),
      failedAsStandby: assign({
        seen: undefined,
        failing: ({ context, event }) =>
          reportOnce(logger, context.failing, (event as { error?: unknown }).error, NO_ANSWER, {
            holding: false,
          }),
      }),
      releaseFailed: ({ event }) =>
        logger.warn(
          { err: (event as { error?: unknown }).error },
          'could not delete the event connection lease (it is taken over once unchanged for the takeover time)',
        ),
    },
  }).createMachine({
    id: 'election',
    context: { revision: undefined, acceptedAt: 0, sentAt: 0, seen: undefined, failing: undefined },
    // The entry is read at once on start, then every `watchMs`.
    initial: 'reading',
    on: { stop: '.stopping' },
    states: {
      watching: { after: { watch: 'reading' } },
      reading: {
        invoke: {
          src: 'read',
          onDone: [
            {
              guard: ({ event }) => event.output === undefined,
              target: 'acquiring',
              actions: assign({ seen: undefined, failing: undefined }),
            },
            {
              guard: ({ context, event }) => {
                const seen = sawEntry(context, event.output!);
                return seen.value === deps.me || clock.now() - seen.since >= deps.takeoverMs;
              },
              target: 'takingOver',
              actions: assign({
                seen: ({ context, event }) => sawEntry(context, event.output!),
                failing: undefined,
              }),
            },
            {
              target: 'watching',
              actions: assign({
                seen: ({ context, event }) => sawEntry(context, event.output!),
                failing: undefined,
              }),
            },
          ],
          onError: { target: 'watching', actions: 'failedAsStandby' },
        },
      },
      acquiring: {
        invoke: {
          src: 'create',
          onDone: [
            {
              guard: ({ event }) => event.output.revision !== undefined,
              target: 'holding',
              actions: [
                assign(({ event }) => held(event.output)),
                { type: 'announce', params: { why: 'the lease was free' } },
              ],
            },
            { target: 'watching' },
          ],
          onError: { target: 'watching', actions: 'failedAsStandby' },
        },
      },
      takingOver: {
        invoke: {
          src: 'update',
          input: ({ context }) => ({ revision: context.seen!.revision }),
          onDone: [
            {
              guard: ({ event }) => event.output.revision !== undefined,
              target: 'holding',
              actions: [
                {
                  type: 'announce',
                  params: ({ context }) => ({ why: takeoverReason(context, deps.me, clock.now()) }),
                },
                assign(({ event }) => held(event.output)),
              ],
            },
            // Another standby took it first, or the holder renewed meanwhile.
            { target: 'watching', actions: assign({ seen: undefined }) },
          ],
          onError: { target: 'watching', actions: 'failedAsStandby' },
        },
      },
      holding: {
        id: 'holding',
        after: {
          deadline: {
            target: 'watching',
            actions: [
              {
                type: 'lose',
                params: ({ context }) => ({
                  why: `no renewal accepted for ${clock.now() - context.acceptedAt} ms (the lease lives ${deps.takeoverMs} ms)`,
                }),
              },
              // Given up: the entry expires or is taken by itself (a late renewal's answer is dropped).
              assign({ revision: undefined }),
            ],
          },
        },
        on: { release: 'releasing' },
        initial: 'waiting',
        states: {
          waiting: { after: { renewDue: 'renewing' } },
          renewing: {
            entry: assign({ sentAt: () => clock.now() }),
            invoke: {
              src: 'update',
              input: ({ context }) => ({ revision: context.revision! }),
              onDone: [
                {
                  guard: ({ event }) => event.output.revision !== undefined,
                  target: '#holding',
                  reenter: true,
                  actions: assign({
                    revision: ({ event }) => event.output.revision,
                    acceptedAt: ({ event }) => event.output.sentAt,
                    failing: undefined,
                  }),
                },
                {
                  target: '#election.watching',
                  actions: [
                    assign({ revision: undefined }),
                    {
                      type: 'lose',
                      params: { why: 'another process holds the lease now (the renewal was refused)' },
                    },
                  ],
                },
              ],
              onError: {
                target: 'waiting',
                actions: assign({
                  failing: ({ context, event }) =>
                    reportOnce(logger, context.failing, event.error, NO_ANSWER, { holding: true }),
                }),
              },
            },
          },
        },
      },
      releasing: {
        invoke: {
          src: 'remove',
          input: ({ context }) => ({ revision: context.revision }),
          onDone: { target: 'watching', actions: assign({ revision: undefined }) },
          onError: { target: 'watching', actions: [assign({ revision: undefined }), 'releaseFailed'] },
        },
      },
      stopping: {
        invoke: {
          src: 'remove',
          input: ({ context }) => ({ revision: context.revision }),
          onDone: { target: 'stopped', actions: assign({ revision: undefined }) },
          onError: { target: 'stopped', actions: [assign({ revision: undefined }), 'releaseFailed'] },
        },
      },
      stopped: { type: 'final' },
    },
  });
}

/** The context of a process that holds the lease from a write accepted now. */
function held(written: Written): Partial<ElectionContext> {
  return {
    revision: written.revision,
    acceptedAt: written.sentAt,
    sentAt: written.sentAt,
    seen: undefined,
    failing: undefined,
  };
}

function takeoverReason(context: ElectionContext, me: string, now: number): string {
  const seen = context.seen;
  if (!seen) return 'took it over';
  return seen.value === me
    ? 'this process wrote it last (it gave it up while NATS did not answer)'
    : `its revision did not change for ${now - seen.since} ms (holder ${seen.value})`;
}
