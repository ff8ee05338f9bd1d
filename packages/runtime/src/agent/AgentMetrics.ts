import type { Counter, Histogram, MetricsRegistry } from '../metrics/MetricsRegistry.ts';
import type { AgentMetricsSink } from './AgentServices.ts';

/** Turn latency buckets in seconds: a fast local pipeline to a slow cloud model. */
const TURN_BUCKETS = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

/**
 * The agent step's metrics in an application's registry: turn latency (the caller stops → the
 * bot's first audio), barge-ins, and how sessions ended.
 *
 * @example
 * const agents = new AgentMetrics(metrics.registry);
 * const services = { ...otherServices, metrics: agents };
 */
export class AgentMetrics implements AgentMetricsSink {
  readonly turnLatencySeconds: Histogram;
  readonly interruptions: Counter;
  readonly sessionsEnded: Counter;

  constructor(registry: MetricsRegistry) {
    this.turnLatencySeconds = registry.histogram({
      name: 'ringflow_agent_turn_latency_seconds',
      help: "From the caller stopping talking to the bot's first audio of its answer",
      buckets: TURN_BUCKETS,
    });
    this.interruptions = registry.counter({
      name: 'ringflow_agent_interruptions_total',
      help: "Times a caller talked over a bot and the bot's audio was flushed (barge-in)",
    });
    this.sessionsEnded = registry.counter({
      name: 'ringflow_agent_sessions_ended_total',
      help: 'Agent sessions ended, by outcome (handoff, done, failed, unreachable, botSilent, callerSilent, timeout, key, hungUp)',
      labelNames: ['outcome'],
    });
  }

  turnLatency(ms: number): void {
    this.turnLatencySeconds.observe(ms / 1000);
  }

  interrupted(): void {
    this.interruptions.inc();
  }

  ended(outcome: string): void {
    this.sessionsEnded.inc({ outcome });
  }
}
