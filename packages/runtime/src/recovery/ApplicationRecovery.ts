import { type Clock, type EventGap, formatTimestamp, type RestClient } from '@ringflow/client';
import type { Observable } from 'rxjs';
import { Subject } from '../rx.ts';
import type { ServerLink } from '../application/ServerLink.ts';
import type { CallSession } from '../session/CallSession.ts';
import { CallWatchdog, type WatchdogOptions, watchdogBounds } from './CallWatchdog.ts';
import { GapRecovery, type GapRecoveryHost } from './GapRecovery.ts';
import type { GapReport } from './GapReport.ts';

/** What an application's recovery needs of it. */
export interface ApplicationRecoveryHost
  extends Omit<GapRecoveryHost, 'recovering' | 'reported' | 'timestamp'> {
  readonly clock: Clock;
  /** The calls in progress. */
  sessions(): Iterable<CallSession>;
  /** The REST client of a call's server while its events flow (see `WatchdogHost.clientOf`). */
  clientOf(session: CallSession): RestClient | undefined;
  /** The application's `onGap`. */
  readonly onGap: ((report: GapReport) => void) | undefined;
}

/**
 * How an application gets back what its calls' event streams lost: after a gap in a server's
 * events, every call of that server checks with the server what it waits on ({@link GapRecovery});
 * and a watchdog asks the server about any wait that lasts past its bound ({@link CallWatchdog}),
 * whatever lost the event. Counts the calls being checked, for readiness.
 */
export class ApplicationRecovery {
  /** Each event stream gap, after its calls were checked with the server. */
  readonly gaps$: Observable<GapReport>;
  private readonly gaps: GapRecovery;
  private readonly reports = new Subject<GapReport>();
  private readonly watchdog: CallWatchdog | undefined;
  private recoveringCalls = 0;

  /** @param watchdog the watchdog's bounds (see {@link WatchdogOptions}); false: no watchdog. */
  constructor(
    readonly host: ApplicationRecoveryHost,
    watchdog: WatchdogOptions | false | undefined,
  ) {
    this.gaps$ = this.reports.asObservable();
    this.gaps = new GapRecovery({
      ...host,
      timestamp: () => formatTimestamp(host.clock.now()),
      reported: (report) => {
        this.reports.next(report);
        try {
          host.onGap?.(report);
        } catch (error) {
          host.logger.error({ err: error }, 'onGap callback threw');
        }
      },
      recovering: (delta) => {
        this.recoveringCalls += delta;
        host.metrics.callsRecovering.set(this.recoveringCalls);
      },
    });
    this.watchdog = watchdog === false ? undefined : new CallWatchdog(host, watchdogBounds(watchdog));
  }

  /** Calls being checked with the server after a gap now. */
  get recovering(): number {
    return this.recoveringCalls;
  }

  /** The event stream of `link` came back after a gap: its calls are checked with the server. */
  gap(link: ServerLink, gap: EventGap): void {
    void this.gaps.recover(link, gap);
  }

  /** A call started: the watchdog looks at the calls' waits while there are calls. */
  callStarted(): void {
    this.watchdog?.arm();
  }

  /** A call ended; `callsLeft` are still in progress. */
  callEnded(channelId: string, callsLeft: number): void {
    this.gaps.sessionEnded(channelId);
    if (callsLeft === 0) this.watchdog?.idle();
  }

  /** No more sweeps, no more reports (the application stops). */
  stop(): void {
    this.watchdog?.stop();
    this.reports.complete();
  }
}
