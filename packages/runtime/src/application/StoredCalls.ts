import type { Logger } from 'pino';
import type { SessionRouter } from '../session/SessionRouter.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import type { ServerLink } from './ServerLink.ts';

/** What {@link StoredCalls} needs of the application. */
export interface StoredCallsHost {
  /** The application's store, if it has one (`ApplicationOptions.store`). */
  readonly store: CallStore | undefined;
  /** The application names it serves: records of other applications are left alone. */
  readonly apps: readonly string[];
  readonly router: SessionRouter;
  /** Starts a session for the call of `record` on `link`, restored from the record. */
  restore(link: ServerLink, record: CallRecord): void;
}

/**
 * The calls an application takes over from its store: at start, every call the store has a
 * record of on a server whose channel is still up (those `ApplicationOptions.restoreAtStart`
 * picks, when given: a classic cluster's worker leaves a live worker's calls to it); later, those
 * cluster mode picks (`Application.takeOverCalls`). A call is claimed first when the store is shared by several
 * processes (`CallStore.claim`: the first claimer wins), then restored from its record. A call
 * whose channel is gone is restored too when this process may take it (the flow's hang-up path
 * runs, see `CallSession.restore`); at start from a shared store, its record is left alone.
 */
export class StoredCalls {
  constructor(private readonly host: StoredCallsHost) {}

  /**
   * Restores the calls of the store on `link`'s server (those `accept` picks, when given) that no
   * session here follows; resolves with how many.
   */
  async restoreOn(link: ServerLink, accept?: (record: CallRecord) => boolean): Promise<number> {
    const { store, apps, router } = this.host;
    if (!store) return 0;
    const records = (await store.list()).filter(
      (r) =>
        r.asteriskId === link.server.asteriskId &&
        apps.includes(r.app ?? '') &&
        (accept === undefined || accept(r)),
    );
    if (records.length === 0) return 0;
    const live = new Set((await link.client.channels.list()).map((c) => c.id));
    let restored = 0;
    for (const record of records) {
      if (record.version !== 1) {
        link.logger.warn(
          { call: record.callId, version: record.version },
          'call record of an unknown version; left alone',
        );
        continue;
      }
      // A call whose caller hung up while nobody followed it is restored too, when this process
      // may take it (its owner is gone, or the store is this process's alone): its recovery tells
      // the machine the caller left, so the flow's hang-up path runs once and its record goes.
      // A record listed at start from a shared store may be a live process's: left to it.
      if (!live.has(record.channelId) && accept === undefined && store.claim) {
        await store.remove(record.callId);
        continue;
      }
      if (router.ownersOf(link.server.asteriskId, 'channel', record.channelId).length > 0) continue;
      // `accept` is judged again as each call's turn comes, and once it is claimed (the claims
      // before it took time): a cluster worker fenced meanwhile takes nothing more.
      if (accept !== undefined && !accept(record)) continue;
      const claimed = await this.claim(store, record, link);
      if (!claimed) continue;
      if (accept !== undefined && !accept(claimed)) {
        link.logger.info(
          { call: record.callId },
          'call claimed but no longer accepted; left to the next owner',
        );
        continue;
      }
      this.host.restore(link, claimed);
      restored++;
    }
    link.logger.info({ restored, records: records.length }, 'calls restored from the store');
    return restored;
  }

  /**
   * The record to restore a call from: with a store that has `claim`, only once this process owns
   * the call (undefined when another process claimed it first or it ended); otherwise as listed.
   */
  async claim(
    store: CallStore,
    listed: CallRecord,
    link: { readonly logger: Logger },
  ): Promise<CallRecord | undefined> {
    if (!store.claim) return listed;
    try {
      const claimed = await store.claim(listed.callId);
      if (!claimed) link.logger.info({ call: listed.callId }, 'call claimed by another process; left to it');
      return claimed;
    } catch (error) {
      link.logger.warn(
        { err: error, call: listed.callId },
        'could not claim the call in the store; left alone',
      );
      return undefined;
    }
  }
}
