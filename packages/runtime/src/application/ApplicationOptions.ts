import type { QueueSettings } from '../queue/QueueState.ts';
import type { QueueStore } from '../queue/QueueStore.ts';
import type { ChannelsOriginateParams, Clock, StasisStart } from '@ringflow/client';
import type { Logger, LoggerOptions } from 'pino';
import type { AnyStateMachine } from 'xstate';
import type { BridgeSessionOptions } from '../bridge/BridgeSession.ts';
import type { CallEnded } from '../session/CallEnded.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import type { CleanupRetryOptions } from './CleanupRetry.ts';
import type { WatchdogOptions } from '../recovery/CallWatchdog.ts';
import type { GapReport } from '../recovery/GapReport.ts';
import type { ListenOptions } from './ListenOptions.ts';
import type { ServerOptions } from './ServerOptions.ts';
import type { BroadcastClaimOptions } from './BroadcastClaims.ts';

/** What the machine factory learns about a new call. */
export interface CallInfo {
  readonly app: string;
  readonly args: readonly string[];
  readonly direction: 'inbound' | 'outbound';
  readonly server: string;
  readonly start: StasisStart;
}

export interface ApplicationOptions {
  /** The servers to dial; one event stream and one REST client each. May be empty with `listen`. */
  readonly servers: readonly ServerOptions[];
  /**
   * Also (or only) wait for servers to dial the application (outbound WebSockets, persistent or
   * one connection per call): each accepted socket carries its events and its REST requests, and
   * a call's actions go over the socket it arrived on. Per-call application names
   * (`<app>:<channel name>`) count as `<app>`.
   */
  readonly listen?: ListenOptions;
  /** The application names channels enter with `Stasis(name)`. */
  readonly apps: string | readonly string[];
  /** The machine every call runs, or a function choosing one per call (by app, args...). */
  readonly call: AnyStateMachine | ((info: CallInfo) => AnyStateMachine);
  /** Source of time for everything (machines' `after`, digit timeouts, drain, reconnects). Default: system clock. */
  readonly clock?: Clock;
  /** A pino logger to use (a redacting child is made), or options for a new one. */
  readonly logger?: Logger | LoggerOptions;
  /** Makes unique ids for channels, bridges, playbacks...; default `randomUUID`. */
  readonly ids?: () => string;
  /** Ask the servers for every event, not only the application's resources. Default false. */
  readonly subscribeAll?: boolean;
  /**
   * What to do with a channel entering the application while draining: `hangup` (default, with
   * cause `congestion`, so the caller's side can retry elsewhere) or `continue` (back to the
   * dialplan at the next priority, which may route it elsewhere).
   */
  readonly whileDraining?: 'hangup' | 'continue';
  /**
   * How the runtime's own cleanup requests (hang up a call's channel at its end, the channels and
   * snoops it created, destroy its bridges) are retried after no reply or a 5xx. Default: 3
   * attempts, 500 ms doubling to 4 s, jittered. A 404 means done.
   */
  readonly cleanupRetry?: CleanupRetryOptions;
  /**
   * A channel or bridge still there after its cleanup's last attempt is a leftover: every
   * reconciliation after a gap removes it again, and so does a sweep this long after each failed
   * round (at most 5 rounds, then it is logged as an error and given up). 0: only after gaps.
   * Default 10 000 ms.
   */
  readonly leftoverSweepMs?: number;
  /**
   * Where each call's record (its machine's snapshot and the session's bookkeeping, plain data)
   * is written after every step, so that a call survives its process: an application started
   * with the same store restores every call whose channel is still in the application, and goes
   * on where it was (see `detach()`, `CallRecord`, and the runtime README "Calls that survive
   * their process"). None: nothing is written, and nothing is restored.
   */
  readonly store?: CallStore;
  /**
   * Called after each event stream gap, once every call of the server was checked with it (and
   * told the events it missed, see `CallSession.recover`).
   */
  readonly onGap?: (report: GapReport) => void;
  /**
   * How long a call waits for a server event (a prompt's end, a recording's, a phone's answer,
   * its own channel's end) before the runtime asks the server about it; an event found lost is
   * told to the machine, marked `recovered`, and a call whose state the server cannot tell is
   * ended as failed. See `WatchdogOptions` for the bounds and their defaults. `false`: no watchdog
   * (a lost event then leaves its call waiting until its own timers end it).
   */
  readonly watchdog?: WatchdogOptions | false;
  /**
   * Called once per call when its session has ended: why (`outcome`), where the machine was
   * (`machineStatus`, `snapshotValue`) and the flow's `output` if it reached a final state.
   * Also on `app.callEnded$`.
   */
  readonly onCallEnded?: (ended: CallEnded) => void;
  /**
   * Claim calls the server offers with `StasisBroadcast()` (CallBroadcast, `POST /events/claim`),
   * while fewer than `maxCalls` are active: identical processes then share calls without a broker.
   * Default: offers are ignored.
   */
  readonly claimBroadcasts?: boolean | BroadcastClaimOptions;
  /**
   * Call queues by name, with their agents and ring strategy (`call.queue(name)`, the `queue`
   * step of flows). Settings given here win over a flow's own `queues:` section. Durations in
   * milliseconds. See `QueueSettings`.
   */
  readonly queues?: Readonly<Record<string, QueueSettings>>;
  /**
   * Where the call queues' state lives. Default: this process (`LocalQueueStore`). Processes of
   * a cluster share it (`SharedQueueStore`, on NATS JetStream with `@ringflow/cluster`'s
   * `JetStreamQueueStore`): one order of callers, one agent offered one caller at a time.
   */
  readonly queueStore?: QueueStore;
  /**
   * Whether a channel entering the application that no session owns starts a call here (its
   * StasisStart, or a channel adopted after a gap). Cluster mode with a shared event stream says
   * no to the calls assigned to other processes. Default: every one.
   */
  readonly acceptCall?: (start: StasisStart, server: string) => boolean;
  /**
   * Which calls of the store {@link Application.start} takes over (among those of its servers no
   * session here follows). Default: every one whose channel is up. Given, a call it picks whose
   * channel is gone is restored too (its flow's hang-up path runs, and its record goes). A classic
   * cluster's worker takes only its own and those of workers gone (`ClassicCluster.restoreAtStart`):
   * a live worker's calls stay with it.
   */
  readonly restoreAtStart?: (record: CallRecord) => boolean;
}

/** Options of {@link Application.originate}. */
export interface OriginateOptions
  extends Omit<ChannelsOriginateParams, 'app' | 'channelId' | 'otherChannelId'> {
  /** The server to call from (by name); default: the first one. */
  readonly server?: string;
  /** The application the channel enters; default: the first of `apps`. */
  readonly app?: string;
  /** The machine this call runs; default: the application's `call` option. */
  readonly machine?: AnyStateMachine;
}

/** Options of {@link Application.createBridge}. */
export interface CreateBridgeOptions extends Omit<BridgeSessionOptions, 'bridgeId' | 'sharedStream'> {
  readonly server?: string;
}

/** Live counts of what the application holds; all zero after every call has ended. */
export interface RuntimeCounters {
  readonly activeSessions: number;
  readonly bridgeSessions: number;
  /** Subscriptions to call and bridge event streams. */
  readonly subscriptions: number;
  /** Timers set by sessions and machines, and the drain deadline. */
  readonly timers: number;
  /** REST requests in flight for sessions, plus cleanup requests. */
  readonly pendingRequests: number;
  /** Resources routed to a session. */
  readonly routes: number;
  /** Digit collectors waiting. */
  readonly digitWaiters: number;
}
