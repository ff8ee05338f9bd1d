import {
  type Channel,
  type EventGap,
  parseStasisAppData,
  type StasisAppData,
  type StasisStart,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { ServerLink } from '../application/ServerLink.ts';
import type { BridgeSession } from '../bridge/BridgeSession.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { CallSession } from '../session/CallSession.ts';
import type { SessionRouter } from '../session/SessionRouter.ts';
import type { GapReport } from './GapReport.ts';
import { listedServer } from './ServerView.ts';

/** What the gap recovery needs from the application. */
export interface GapRecoveryHost {
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
  /** How many calls are being checked with the server now changed by `delta` (for readiness). */
  recovering(delta: number): void;
}

/**
 * What the application does after an event stream gap, once the stream is back (a reconnect, a
 * classic cluster's holder change or its gap marker, a JetStream stream come back shorter): lists
 * the server's channels and bridges; has each call check with the server what it waits on and
 * tell its machine the events it missed (see `CallSession.recover`: a call whose channel is gone
 * runs its hang-up path and ends `reconciled`); ends the bridge sessions whose bridges are gone;
 * adopts the channels in the application that no session owns (their StasisStart was lost);
 * removes again the leftovers of failed cleanups; then reports it all (`GapReport`).
 */
export class GapRecovery {
  /** Recoveries waiting for the server's listing. */
  private listing = 0;
  /**
   * Channels whose sessions ended while a listing was in flight: the listing may predate their
   * StasisEnd, so they are not adopted from it.
   */
  private readonly endedWhileListing = new Set<string>();

  constructor(private readonly app: GapRecoveryHost) {}

  /** A call session ended (while a listing is in flight, its channel must not be adopted from it). */
  sessionEnded(channelId: string): void {
    if (this.listing > 0) this.endedWhileListing.add(channelId);
  }

  /** After a gap on `link` (see the class). Never rejects: a failure is in the report. */
  async recover(link: ServerLink, gap: EventGap): Promise<void> {
    const mine = this.app.sessionsOn(link).filter((s) => !s.ended);
    const myBridges = this.app.bridgesOn(link);
    let report: GapReport;
    this.listing++;
    this.app.recovering(mine.length);
    let stillRecovering = mine.length;
    try {
      const [channels, bridges] = await Promise.all([
        link.client.channels.list(),
        link.client.bridges.list(),
      ]);
      const view = listedServer(link.client, channels, bridges);
      const liveChannels = new Set(channels.map((c) => c.id));
      const liveBridges = new Set(bridges.map((b) => b.id));
      const endedCalls: string[] = [];
      const keptCalls: string[] = [];
      const recoveredCalls: string[] = [];
      const uncheckedCalls: string[] = [];
      await Promise.all(
        mine.map(async (s) => {
          try {
            const recovery = await s.recover(view, 'gap', 'gap');
            if (recovery.callGone) endedCalls.push(s.channelId);
            else {
              keptCalls.push(s.channelId);
              if (recovery.told.length > 0) recoveredCalls.push(s.channelId);
            }
          } catch (error) {
            // Left as it is: its watchdog asks the server again later.
            keptCalls.push(s.channelId);
            uncheckedCalls.push(s.channelId);
            link.logger.warn(
              { call: s.channelId, err: error },
              'after a gap: could not check the call with the server',
            );
          } finally {
            stillRecovering--;
            this.app.recovering(-1);
          }
        }),
      );
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
        recoveredCalls,
        uncheckedCalls,
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
        recoveredCalls: [],
        uncheckedCalls: mine.map((s) => s.channelId),
        endedBridges: [],
        adoptedCalls: [],
        removedLeftovers: [],
        error: error instanceof Error ? error : new Error(String(error)),
      };
    } finally {
      this.listing--;
      if (this.listing === 0) this.endedWhileListing.clear();
      this.app.recovering(-stillRecovering);
    }
    this.app.metrics.gaps.inc({ server: link.name });
    link.logger.warn(
      {
        gapMs: gap.durationMs,
        attempts: gap.attempts,
        endedCalls: report.endedCalls.length,
        keptCalls: report.keptCalls.length,
        recoveredCalls: report.recoveredCalls.length,
        uncheckedCalls: report.uncheckedCalls.length,
        adoptedCalls: report.adoptedCalls.length,
        removedLeftovers: report.removedLeftovers.length,
        err: report.error,
      },
      'event stream gap: calls checked with the server',
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
