import type { Logger } from 'pino';
import { assign, fromPromise, setup } from 'xstate';

/** What the takeover machine needs: one search for the calls of gone workers. */
export interface TakeoverDeps {
  /**
   * Claims and restores the calls of gone workers (and, with `reclaimOwn`, this worker's own
   * records nobody claimed while it was fenced). Resolves with whether it searched (false: no
   * application yet, the request is kept for the next search).
   */
  readonly search: (reclaimOwn: boolean) => Promise<boolean>;
  readonly logger: Logger;
}

interface TakeoverContext {
  /** The next search also takes back this worker's own orphans (asked on rejoining). */
  readonly reclaimOwn: boolean;
  /** What the search under way was asked (kept if it does not finish). */
  readonly reclaiming: boolean;
}

export type TakeoverEvent = { type: 'search' } | { type: 'fence' } | { type: 'rejoin' } | { type: 'stop' };

/**
 * The takeover role of a classic-cluster worker as a statechart: one search at a time.
 *
 * - `idle` → `search` (a worker became gone, or a periodic full scan) → `searching`;
 * - `searching.alone` → `search` again → `searching.again`: one more search once this one ends;
 * - `fence` (this worker lost its lease) → `fenced`, at once from `idle` or after the search
 *   under way (`searching.fenceAfter`): a fenced worker takes nothing over;
 * - `rejoin` (the lease is held again) → a search that also takes back this worker's own records
 *   nobody claimed meanwhile;
 * - `stop` → `stopped`. A failed search is logged; the next turn's search tries again.
 */
export function takeoverMachine(deps: TakeoverDeps) {
  return setup({
    types: { context: {} as TakeoverContext, events: {} as TakeoverEvent },
    actors: {
      search: fromPromise(({ input }: { input: { reclaimOwn: boolean } }) => deps.search(input.reclaimOwn)),
    },
    guards: {
      /** No application yet: nothing was searched (a reclaim asked stays asked). */
      searchedNothing: ({ event }) => (event as { output?: unknown }).output === false,
    },
    actions: {
      wantReclaim: assign({ reclaimOwn: true }),
      failed: ({ event }) =>
        deps.logger.warn(
          { err: (event as { error?: unknown }).error },
          'taking over the calls of gone workers failed (tried again at the next search)',
        ),
      keepReclaim: assign(({ context }) => ({ reclaimOwn: context.reclaimOwn || context.reclaiming })),
    },
  }).createMachine({
    id: 'takeover',
    context: { reclaimOwn: false, reclaiming: false },
    initial: 'idle',
    on: { stop: '.stopped' },
    states: {
      idle: {
        on: { search: 'searching', fence: 'fenced', rejoin: { target: 'searching', actions: 'wantReclaim' } },
      },
      searching: {
        entry: assign(({ context }) => ({ reclaiming: context.reclaimOwn, reclaimOwn: false })),
        invoke: {
          id: 'search',
          src: 'search',
          input: ({ context }) => ({ reclaimOwn: context.reclaiming }),
        },
        // Where a search ends depends on what was asked meanwhile: each substate says.
        initial: 'alone',
        states: {
          alone: {
            on: {
              search: 'again',
              fence: 'fenceAfter',
              rejoin: { target: 'again', actions: 'wantReclaim' },
              'xstate.done.actor.search': [
                { guard: 'searchedNothing', target: '#takeover.idle', actions: 'keepReclaim' },
                { target: '#takeover.idle' },
              ],
              'xstate.error.actor.search': { target: '#takeover.idle', actions: ['failed', 'keepReclaim'] },
            },
          },
          again: {
            on: {
              fence: 'fenceAfter',
              rejoin: { actions: 'wantReclaim' },
              'xstate.done.actor.search': [
                { guard: 'searchedNothing', target: '#takeover.idle', actions: 'keepReclaim' },
                { target: '#takeover.searching', reenter: true },
              ],
              'xstate.error.actor.search': {
                target: '#takeover.searching',
                reenter: true,
                actions: ['failed', 'keepReclaim'],
              },
            },
          },
          fenceAfter: {
            on: {
              rejoin: { target: 'again', actions: 'wantReclaim' },
              'xstate.done.actor.search': '#takeover.fenced',
              'xstate.error.actor.search': { target: '#takeover.fenced', actions: ['failed', 'keepReclaim'] },
            },
          },
        },
      },
      fenced: { on: { rejoin: { target: 'searching', actions: 'wantReclaim' } } },
      stopped: { type: 'final' },
    },
  });
}
