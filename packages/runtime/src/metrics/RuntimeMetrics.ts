import type { Clock } from '@ringflow/client';
import {
  type Counter,
  type Gauge,
  type Histogram,
  MetricsRegistry,
  type MetricsSnapshot,
} from './MetricsRegistry.ts';
import { AgentMetrics } from '../agent/AgentMetrics.ts';
import type { QueueObserver } from '../queue/CallQueue.ts';
import type { AgentState, QueueState as QueueStateView } from '../queue/QueueState.ts';

/** Waits in a call queue: seconds to half an hour. */
const QUEUE_WAIT_BUCKETS = [5, 15, 30, 60, 120, 300, 600, 1800];

/** One word for what an agent is doing, as the agents gauge counts it. */
function agentStateOf(agent: AgentState, now: number): string {
  if (!agent.loggedIn) return 'loggedOut';
  if (agent.paused) return 'paused';
  // Resting after a call or a missed offer counts as wrapping up.
  if (agent.activity === 'idle') return agent.restUntil > now ? 'wrapUp' : 'available';
  return agent.activity;
}

/** REST latency buckets in seconds: from a loopback simulator (sub-millisecond) to a slow WAN. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How many one-second slots the events/s rate averages over. */
const RATE_WINDOW_SECONDS = 10;

/** The runtime's numbers as plain data, for tests and JSON endpoints. */
export interface RuntimeMetricsSummary {
  readonly activeCalls: number;
  readonly callsStarted: number;
  readonly callsEnded: number;
  readonly events: number;
  /** Events per second over the last 10 s of clock time. */
  readonly eventsPerSecond: number;
  readonly restRequests: number;
  /** REST error replies by status: `{ '404': 3 }`. */
  readonly restErrorsByStatus: Readonly<Record<string, number>>;
  readonly reconnects: number;
  readonly gaps: number;
  /** Calls adopted after a gap (their StasisStart was lost). */
  readonly callsAdopted: number;
  /** Events calls missed and were told after asking the server (gaps, takeovers, watchdogs). */
  readonly eventsRecovered: number;
  /** Cleanup requests sent again, and the ones that failed after their last attempt. */
  readonly cleanupRetries: number;
  readonly cleanupsFailed: number;
}

/**
 * The metrics every application keeps: active calls, calls started and ended, events (and events
 * per second), REST latency, REST errors by status, reconnects and event gaps.
 *
 * @example
 * const metrics = new RuntimeMetrics(clock);
 * metrics.callStarted('inbound');
 * metrics.registry.toPrometheus(); // includes 'ringflow_active_calls 1'
 */
export class RuntimeMetrics {
  readonly registry = new MetricsRegistry();
  readonly activeCalls: Gauge;
  readonly callsStarted: Counter;
  readonly callsEnded: Counter;
  readonly callsTransferred: Counter;
  readonly events: Counter;
  readonly eventsPerSecondGauge: Gauge;
  readonly restLatency: Histogram;
  readonly restErrors: Counter;
  readonly reconnects: Counter;
  readonly gaps: Counter;
  readonly callsAdopted: Counter;
  readonly eventsRecovered: Counter;
  readonly callsRecovering: Gauge;
  readonly callsOverdue: Gauge;
  readonly watchdogChecks: Counter;
  readonly cleanupRetries: Counter;
  readonly cleanupsFailed: Counter;
  readonly leftoversRemoved: Counter;
  readonly leftoversAbandoned: Counter;
  readonly stepFailures: Counter;
  readonly queueCallersWaiting: Gauge;
  readonly queueAgents: Gauge;
  readonly queueCallers: Counter;
  readonly queueWait: Histogram;
  /** The agent steps' turn latency, barge-ins and end reasons (give it to `createAgentServices`). */
  readonly agents: AgentMetrics;
  private readonly clock: Clock;
  /** Events counted per whole second of clock time; only the last window is kept. */
  private readonly perSecond = new Map<number, number>();
  /** The second being counted and its count so far (folded into `perSecond` when it changes). */
  private currentSecond = Number.NaN;
  private currentCount = 0;
  /** Series updated per event and per request, kept per label value (no lookup each time). */
  private readonly eventsByServer = new Map<string, { inc(amount?: number): void }>();
  private readonly latencyByOperation = new Map<string, { observe(value: number): void }>();
  /** The last state each queue reported (its agents gauge is counted again when read). */
  private readonly queueStates = new Map<string, QueueStateView>();

  constructor(clock: Clock) {
    this.clock = clock;
    const r = this.registry;
    this.activeCalls = r.gauge({ name: 'ringflow_active_calls', help: 'Call sessions in progress' });
    this.callsStarted = r.counter({
      name: 'ringflow_calls_started_total',
      help: 'Call sessions started, by direction (inbound, outbound)',
      labelNames: ['direction'],
    });
    this.callsEnded = r.counter({
      name: 'ringflow_calls_ended_total',
      help: 'Calls ended, by application, status (completed, recovered, failed, hungUp, continued, unanswered, drained, stopped, detached) and who ended them (caller, flow, dialplan, server, application)',
      labelNames: ['app', 'status', 'by'],
    });
    this.callsTransferred = r.counter({
      name: 'ringflow_calls_transferred_total',
      help: 'Calls transferred by a phone (blind or attended) whose session followed the channel that replaced its own',
      labelNames: ['by'],
    });
    this.events = r.counter({
      name: 'ringflow_events_total',
      help: 'Events received from the event streams, by server',
      labelNames: ['server'],
    });
    this.eventsPerSecondGauge = r.gauge({
      name: 'ringflow_events_per_second',
      help: `Events per second over the last ${RATE_WINDOW_SECONDS} s (computed when read)`,
    });
    this.restLatency = r.histogram({
      name: 'ringflow_rest_request_duration_seconds',
      help: 'Time from sending a REST request to its reply, by operation',
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
    });
    this.restErrors = r.counter({
      name: 'ringflow_rest_errors_total',
      help: 'REST requests answered with an error status (or none: status 0), by operation and status',
      labelNames: ['operation', 'status'],
    });
    this.reconnects = r.counter({
      name: 'ringflow_reconnects_total',
      help: 'Event stream reconnections, by server',
      labelNames: ['server'],
    });
    this.gaps = r.counter({
      name: 'ringflow_event_gaps_total',
      help: 'Periods without an event stream, after which sessions were reconciled, by server',
      labelNames: ['server'],
    });
    this.callsAdopted = r.counter({
      name: 'ringflow_calls_adopted_total',
      help: 'Calls found in the application with no session after a gap (their StasisStart was lost) and started then, by server',
      labelNames: ['server'],
    });
    this.eventsRecovered = r.counter({
      name: 'ringflow_events_recovered_total',
      help: 'Events a call missed (lost in a gap, a takeover, or late past its watchdog), learned by asking the server and told to its machine, by event type and reason (gap, restore, watchdog)',
      labelNames: ['type', 'reason'],
    });
    this.callsRecovering = r.gauge({
      name: 'ringflow_calls_recovering',
      help: 'Calls whose resources are being checked with the server after a gap',
    });
    this.callsOverdue = r.gauge({
      name: 'ringflow_calls_overdue',
      help: 'Calls waiting for a server event past its watchdog, whose state the server has not yet told (checks failing or under way)',
    });
    this.watchdogChecks = r.counter({
      name: 'ringflow_watchdog_checks_total',
      help: 'Waits past their watchdog checked with the server, by what it said (present: still under way, recovered: an event was missed, failed: no answer)',
      labelNames: ['result'],
    });
    this.cleanupRetries = r.counter({
      name: 'ringflow_cleanup_retries_total',
      help: 'Cleanup requests (hang-ups, bridge destroys) sent again after no reply or a 5xx, by server',
      labelNames: ['server'],
    });
    this.cleanupsFailed = r.counter({
      name: 'ringflow_cleanups_failed_total',
      help: 'Cleanup requests that failed after their last attempt, by server',
      labelNames: ['server'],
    });
    this.leftoversRemoved = r.counter({
      name: 'ringflow_leftovers_removed_total',
      help: 'Channels and bridges whose cleanup had failed, removed by a later reconciliation, by server',
      labelNames: ['server'],
    });
    this.leftoversAbandoned = r.counter({
      name: 'ringflow_leftovers_abandoned_total',
      help: 'Channels and bridges the runtime gave up removing after its reconciliation rounds, by server',
      labelNames: ['server'],
    });
    this.stepFailures = r.counter({
      name: 'ringflow_step_failures_total',
      help: 'Steps of call logic that failed, by flow, step and HTTP status (none: no reply, or not a request)',
      labelNames: ['flow', 'step', 'status'],
    });
    this.queueCallersWaiting = r.gauge({
      name: 'ringflow_queue_callers_waiting',
      help: 'Callers waiting in a call queue now, by queue',
      labelNames: ['queue'],
    });
    this.queueAgents = r.gauge({
      name: 'ringflow_queue_agents',
      help: 'Agents of a call queue, by queue and state (available, ringing, talking, wrapUp, paused, loggedOut)',
      labelNames: ['queue', 'state'],
    });
    this.queueCallers = r.counter({
      name: 'ringflow_queue_callers_total',
      help: 'Callers who left a call queue, by queue and how (answered, timeout, exited, abandoned, noAgents)',
      labelNames: ['queue', 'outcome'],
    });
    this.queueWait = r.histogram({
      name: 'ringflow_queue_wait_seconds',
      help: 'How long callers waited in a call queue, by queue and how they left',
      labelNames: ['queue', 'outcome'],
      buckets: QUEUE_WAIT_BUCKETS,
    });
    this.agents = new AgentMetrics(r);
    // Computed when read, whoever reads the registry (this class, or a scrape of it directly).
    r.beforeRead(() => this.refreshComputed());
  }

  /** What the application's call queues report: their callers, agents and waits. */
  readonly queueObserver: QueueObserver = {
    changed: (state) => {
      this.queueCallersWaiting.set(state.callers.length, { queue: state.name });
      this.queueStates.set(state.name, state);
      this.countAgents(state);
    },
    left: (queue, outcome, waitedMs) => {
      this.queueCallers.inc({ queue, outcome });
      this.queueWait.observe(waitedMs / 1000, { queue, outcome });
    },
  };

  /**
   * Sets the agents gauge of one queue from its state, now: an agent resting until a time is
   * `wrapUp` before it and `available` after, with no change of the queue in between, so the
   * gauge is counted again whenever it is read too.
   */
  private countAgents(state: QueueStateView): void {
    const counts: Record<string, number> = {
      available: 0,
      ringing: 0,
      talking: 0,
      wrapUp: 0,
      paused: 0,
      loggedOut: 0,
    };
    const now = this.clock.now();
    for (const agent of state.agents) counts[agentStateOf(agent, now)]! += 1;
    for (const [s, n] of Object.entries(counts)) this.queueAgents.set(n, { queue: state.name, state: s });
  }

  /** The gauges computed when read: events per second, each queue's agents. */
  private refreshComputed(): void {
    this.eventsPerSecondGauge.set(this.eventsPerSecond());
    for (const state of this.queueStates.values()) this.countAgents(state);
  }

  /** One step failure, as the call's logic reported it. */
  stepFailed(flow: string, step: string, status: number | undefined): void {
    this.stepFailures.inc({ flow, step, status: status === undefined ? 'none' : String(status) });
  }

  callStarted(direction: 'inbound' | 'outbound'): void {
    this.callsStarted.inc({ direction });
    this.activeCalls.inc();
  }

  /** A call ended: how, in the one vocabulary of call ends (`CallEnd.ts`). */
  callEnded(ended: { readonly app: string | undefined; readonly status: string; readonly by: string }): void {
    this.callsEnded.inc({ app: ended.app ?? '', status: ended.status, by: ended.by });
    this.activeCalls.dec();
  }

  eventReceived(server: string): void {
    let counter = this.eventsByServer.get(server);
    if (!counter) {
      counter = this.events.child({ server });
      this.eventsByServer.set(server, counter);
    }
    counter.inc();
    const second = Math.floor(this.clock.now() / 1000);
    if (second !== this.currentSecond) {
      this.foldCurrentSecond();
      this.currentSecond = second;
    }
    this.currentCount++;
  }

  /** Moves the count of the second being counted into the window. */
  private foldCurrentSecond(): void {
    if (this.currentCount === 0) return;
    const second = this.currentSecond;
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + this.currentCount);
    this.currentCount = 0;
    if (this.perSecond.size > RATE_WINDOW_SECONDS + 1) this.prune(second);
  }

  /** Records one REST exchange: latency always, errors by status (0 when no reply came). */
  restRequestDone(operation: string, durationMs: number, status: number): void {
    let latency = this.latencyByOperation.get(operation);
    if (!latency) {
      latency = this.restLatency.child({ operation });
      this.latencyByOperation.set(operation, latency);
    }
    latency.observe(durationMs / 1000);
    if (status === 0 || status >= 400) this.restErrors.inc({ operation, status });
  }

  private prune(nowSecond: number): void {
    for (const s of this.perSecond.keys()) if (s <= nowSecond - RATE_WINDOW_SECONDS) this.perSecond.delete(s);
  }

  /** Events per second over the last window of clock time. */
  eventsPerSecond(): number {
    this.foldCurrentSecond();
    const now = Math.floor(this.clock.now() / 1000);
    this.prune(now);
    let total = 0;
    for (const n of this.perSecond.values()) total += n;
    return total / RATE_WINDOW_SECONDS;
  }

  /** The Prometheus text format. */
  toPrometheus(): string {
    return this.registry.toPrometheus();
  }

  /** Every metric with its series, as plain data. */
  toJSON(): MetricsSnapshot {
    return this.registry.toJSON();
  }

  /** The headline numbers. */
  summary(): RuntimeMetricsSummary {
    const restErrorsByStatus: Record<string, number> = {};
    for (const s of this.restErrors.samples()) {
      const status = s.labels.status ?? '';
      restErrorsByStatus[status] = (restErrorsByStatus[status] ?? 0) + s.value;
    }
    let restRequests = 0;
    for (const s of this.restLatency.samples()) restRequests += s.count;
    return {
      activeCalls: this.activeCalls.get(),
      callsStarted: this.callsStarted.total(),
      callsEnded: this.callsEnded.total(),
      events: this.events.total(),
      eventsPerSecond: this.eventsPerSecond(),
      restRequests,
      restErrorsByStatus,
      reconnects: this.reconnects.total(),
      gaps: this.gaps.total(),
      callsAdopted: this.callsAdopted.total(),
      eventsRecovered: this.eventsRecovered.total(),
      cleanupRetries: this.cleanupRetries.total(),
      cleanupsFailed: this.cleanupsFailed.total(),
    };
  }
}
