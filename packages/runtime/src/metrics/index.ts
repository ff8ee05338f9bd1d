export { Counter, Gauge, Histogram, MetricsRegistry } from './MetricsRegistry.ts';
export type { HistogramSample, Labels, MetricSample, MetricsSnapshot } from './MetricsRegistry.ts';
export { RuntimeMetrics } from './RuntimeMetrics.ts';
export type { RuntimeMetricsSummary } from './RuntimeMetrics.ts';
