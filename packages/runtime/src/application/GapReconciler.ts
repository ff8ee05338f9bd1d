import {
  type Channel,
  type EventGap,
  parseStasisAppData,
  type StasisAppData,
  type StasisStart,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { BridgeSession } from '../bridge/BridgeSession.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { CallSession } from '../session/CallSession.ts';
import type { SessionRouter } from '../session/SessionRouter.ts';
import type { GapReport } from './GapReport.ts';
import type { ServerLink } from './ServerLink.ts';

/** What the reconciler needs from the application. */
export interface ReconcilerHost {
  readonly apps: readonly string[];
  readonly router: SessionRouter;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  /** The application's lifecycle state (nothing is adopted unless it runs or drains). */
  state(): 'new' | 'starting' | 'running' | 'draining' | 'stopped';
  /** The call sessions and bridge sessions in progress on a server. */
  sessionsOn(link: ServerLink): CallSession[];
  bridgesOn(link: ServerLink): BridgeSession[];
  /** Whether a channel no session owns may start a call here (see `ApplicationOptions.acceptCall`). */
  accepts(link: ServerLink, start: StasisStart): boolean;
  /** Starts the call of a channel whose StasisStart was lost, from a StasisStart made of the listing. */
  adopt(link: ServerLink, start: StasisStart): void;
  /** A time as the server writes event timestamps. */
  timestamp(): string;
  /** Tells the application's observers (gaps$, onGap). */
  reported(report: GapReport): void;
}

/**
 * What the application does after an event stream gap, once the stream is back: lists the
 * server's channels and bridges, ends the sessions whose channels are gone, adopts the channels
 * in the application that no session owns (their StasisStart was lost in the gap), and removes
 * again the leftovers of failed cleanups; then reports it all (`GapReport`).
 */
export class GapReconciler {
  /** Reconciliations waiting for the server's listing. */
  private listing = 0;
  /**
   * Channels whose sessions ended while a listing was in flight: the listing may predate their
   * StasisEnd, so they are not adopted from it.
   */
  private readonly endedWhileListing = new Set<string>();

  constructor(private readonly app: ReconcilerHost) {}

  /** A call session ended (while a listing is in flight, its channel must not be adopted from it). */
  sessionEnded(channelId: string): void {
    if (this.listing > 0) this.endedWhileListing.add(channelId);
  }

  /**
   * After a gap: list the server's channels and bridges; end the sessions whose channels are gone;
   * start a session for each channel in one of the application's Stasis apps that no session owns
   * (its StasisStart was lost in the gap); remove again the leftovers of failed cleanups.
   */
  async reconcile(link: ServerLink, gap: EventGap): Promise<void> {
    const mine = this.app.sessionsOn(link);
    const myBridges = this.app.bridgesOn(link);
    let report: GapReport;
    this.listing++;
    try {
      const [channels, bridges] = await Promise.all([
        link.client.channels.list(),
        link.client.bridges.list(),
      ]);
      const liveChannels = new Set(channels.map((c) => c.id));
      const liveBridges = new Set(bridges.map((b) => b.id));
      const endedCalls: string[] = [];
      const keptCalls: string[] = [];
      for (const s of mine) {
        if (s.ended) continue;
        if (liveChannels.has(s.channelId)) {
          s.reconcile(liveChannels, liveBridges);
          keptCalls.push(s.channelId);
        } else {
          s.end('reconciled');
          endedCalls.push(s.channelId);
        }
      }
      const endedBridges: string[] = [];
      for (const b of myBridges) {
        if (liveBridges.has(b.bridgeId)) b.reconcile(liveChannels);
        else {
          b.end();
          endedBridges.push(b.bridgeId);
        }
      }
      const removedLeftovers =
        this.app.state() === 'stopped' ? [] : link.removeLeftovers(liveChannels, liveBridges);
      const adoptedCalls = this.adoptOrphans(link, channels);
      report = {
        server: link.name,
        asteriskId: link.server.asteriskId,
        gap,
        endedCalls,
        keptCalls,
        endedBridges,
        adoptedCalls,
        removedLeftovers,
      };
    } catch (error) {
      report = {
        server: link.name,
        asteriskId: link.server.asteriskId,
        gap,
        endedCalls: [],
        keptCalls: mine.map((s) => s.channelId),
        endedBridges: [],
        adoptedCalls: [],
        removedLeftovers: [],
        error: error instanceof Error ? error : new Error(String(error)),
      };
    } finally {
      this.listing--;
      if (this.listing === 0) this.endedWhileListing.clear();
    }
    this.app.metrics.gaps.inc({ server: link.name });
    link.logger.warn(
      {
        gapMs: gap.durationMs,
        attempts: gap.attempts,
        endedCalls: report.endedCalls.length,
        keptCalls: report.keptCalls.length,
        adoptedCalls: report.adoptedCalls.length,
        removedLeftovers: report.removedLeftovers.length,
        err: report.error,
      },
      'event stream gap: sessions reconciled',
    );
    this.app.reported(report);
  }

  /**
   * Starts a session for each listed channel that is in one of the application's Stasis apps
   * (`dialplan.app_name` `Stasis`, `app_data` `<app>[,args...]`) and that nothing of the
   * application owns or is removing: as if its StasisStart (lost in a gap) had arrived, with the
   * args the server split from `app_data`. Returns the adopted channel ids.
   */
  private adoptOrphans(link: ServerLink, channels: readonly Channel[]): string[] {
    const state = this.app.state();
    if (state !== 'running' && state !== 'draining') return [];
    const adopted: string[] = [];
    for (const channel of channels) {
      const stasis = parseStasisAppData(channel.dialplan ?? {});
      if (!stasis || !this.app.apps.includes(stasis.app)) continue;
      if (this.app.router.ownersOf(link.server.asteriskId, 'channel', channel.id).length > 0) continue;
      if (link.isBeingRemoved('channel', channel.id) || this.endedWhileListing.has(channel.id)) continue;
      const start: StasisStart = {
        type: 'StasisStart',
        application: stasis.app,
        args: [...stasis.args],
        channel,
        timestamp: this.app.timestamp(),
        asterisk_id: link.server.asteriskId,
      };
      if (!this.app.accepts(link, start)) continue;
      adopted.push(channel.id);
      this.adopt(link, start, stasis);
    }
    return adopted;
  }

  private adopt(link: ServerLink, start: StasisStart, stasis: StasisAppData): void {
    const channel = start.channel;
    this.app.metrics.callsAdopted.inc({ server: link.name });
    link.logger.warn(
      { call: channel.id, app: stasis.app, args: stasis.args },
      'call adopted: its channel is in the application with no session (its StasisStart was lost in a gap)',
    );
    this.app.adopt(link, start);
  }
}
