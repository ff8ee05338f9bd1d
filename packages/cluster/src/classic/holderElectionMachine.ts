import type { Clock } from '@ringflow/client';
import type { Logger } from 'pino';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
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
  /**
   * Follows the entry as NATS pushes it (a KV watch, restarted when it ends): `seen` for each
   * revision written, `gone` when it is deleted or purged. Returns how to stop following.
   */
  readonly follow: (seen: (entry: LeaseEntry) => void, gone: () => void) => () => void;
  readonly me: string;
  readonly renewMs: number;
  readonly takeoverMs: number;
  /** How long a standby that knows no revision waits before it reads the entry again. */
  readonly safetyReadMs: number;
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
  /** This process released the entry: the delete pushed back is its own, not a free lease to take. */
  readonly released: boolean;
}

export type ElectionEvent =
  | { type: 'release' }
  | { type: 'stop' }
  | { type: 'seen'; entry: LeaseEntry }
  | { type: 'gone' };

/** A write sent at `sentAt`: its revision, or undefined when refused. */
interface Written {
  readonly revision: number | undefined;
  readonly sentAt: number;
}

const NO_ANSWER = 'event connection lease: NATS did not answer (tried again every turn)';

/**
 * The event connection holder's election as a statechart (the rules: `HolderElection`):
 *
 * - a KV watch of the entry runs as long as the machine (`follow`) and pushes each revision
 *   (`seen`) and each delete (`gone`): no polling;
 * - `watching` → a pushed revision re-enters `watching`, which re-arms its timer to `takeoverMs`
 *   after the revision last changed; a pushed delete → `acquiring` at once; a pushed entry this
 *   process wrote last → `takingOver` at once. When the timer fires (no revision pushed for
 *   `takeoverMs`, or `safetyReadMs` while no revision is known), `reading` confirms it: so a
 *   watch that died silently costs one read per `takeoverMs`, never a missed take-over;
 * - `reading` the entry: missing → `acquiring` (create); its revision unchanged for
 *   `takeoverMs`, or written last by this process → `takingOver` (update naming that revision:
 *   of several standbys one wins); else back to `watching`;
 * - `holding.waiting` → `renewMs` after the last renewal was sent, `holding.renewing`: an
 *   accepted renewal re-enters `holding`, which re-arms its deadline; a refused one means another
 *   process holds the lease now: `lost`, back to `watching`; a failed one is tried again;
 * - `holding`'s deadline, `takeoverMs − renewMs` after the last accepted write was sent, is the
 *   self-fencing: a renewal that hangs or fails never re-arms it, so the holder lets the lease go
 *   before any standby (which waits `takeoverMs` from a later moment) can take it;
 * - `release` → `releasing` (the entry deleted: the standbys are pushed the delete and race
 *   to create it) → `watching` (this process ignores its own delete and reads again later); `stop` → `stopping` (the same) → `stopped`.
 *
 * Every NATS failure is logged once per kind and tried again at the next turn.
 */
export function holderElectionMachine(deps: HolderElectionDeps) {
  const { clock, logger } = deps;
  const write = async (work: () => Promise<number | undefined>): Promise<Written> => {
    const sentAt = clock.now();
    return { revision: await work(), sentAt };
  };
  // An entry older than the one known (a read answered after a newer revision was pushed) is not news.
  const sawEntry = (context: ElectionContext, entry: LeaseEntry) =>
    context.seen !== undefined && context.seen.revision >= entry.revision
      ? context.seen
      : { ...entry, since: clock.now() };
  const takeNow = (context: ElectionContext, entry: LeaseEntry) => {
    const seen = sawEntry(context, entry);
    return seen.value === deps.me || clock.now() - seen.since >= deps.takeoverMs;
  };
  return setup({
    types: { context: {} as ElectionContext, events: {} as ElectionEvent },
    actors: {
      read: fromPromise(() => deps.read()),
      follow: fromCallback<ElectionEvent>(({ sendBack }) =>
        deps.follow(
          (entry) => sendBack({ type: 'seen', entry }),
          () => sendBack({ type: 'gone' }),
        ),
      ),
      create: fromPromise(() => write(() => deps.writes.create(deps.me))),
      update: fromPromise(({ input }: { input: { revision: number } }) =>
        write(() => deps.writes.update(deps.me, input.revision)),
      ),
      remove: fromPromise(({ input }: { input: { revision: number | undefined } }) =>
        input.revision === undefined ? Promise.resolve(true) : deps.writes.remove(input.revision),
      ),
    },
    delays: {
      check: ({ context }) =>
        context.seen === undefined
          ? deps.safetyReadMs
          : Math.max(0, context.seen.since + deps.takeoverMs - clock.now()),
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
      note: assign({
        seen: ({ context, event }) => sawEntry(context, (event as { entry: LeaseEntry }).entry),
        released: false,
      }),
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
    context: {
      revision: undefined,
      acceptedAt: 0,
      sentAt: 0,
      seen: undefined,
      failing: undefined,
      released: false,
    },
    // The watch runs as long as the machine; the entry is read at once on start.
    invoke: { src: 'follow' },
    initial: 'reading',
    on: { stop: '.stopping' },
    states: {
      watching: {
        after: { check: 'reading' },
        on: {
          seen: [
            {
              guard: ({ context, event }) => takeNow(context, event.entry),
              target: 'takingOver',
              actions: 'note',
            },
            { target: 'watching', reenter: true, actions: 'note' },
          ],
          gone: {
            guard: ({ context }) => !context.released,
            target: 'acquiring',
            actions: assign({ seen: undefined }),
          },
        },
      },
      reading: {
        on: {
          seen: { actions: 'note' },
          // The read may have been answered before the delete: read again.
          gone: { target: 'reading', reenter: true },
        },
        invoke: {
          src: 'read',
          onDone: [
            {
              guard: ({ event }) => event.output === undefined,
              target: 'acquiring',
              actions: assign({ seen: undefined, failing: undefined, released: false }),
            },
            {
              guard: ({ context, event }) => takeNow(context, event.output!),
              target: 'takingOver',
              actions: assign({
                seen: ({ context, event }) => sawEntry(context, event.output!),
                failing: undefined,
                released: false,
              }),
            },
            {
              target: 'watching',
              actions: assign({
                seen: ({ context, event }) => sawEntry(context, event.output!),
                failing: undefined,
                released: false,
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
          onDone: { target: 'watching', actions: assign({ revision: undefined, released: true }) },
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
