/**
 * `npx tsx bench/metrics-registry.ts`: what the runtime's per-event and per-request metric
 * updates cost with its own MetricsRegistry and with prom-client (the same counter with one label,
 * the same histogram), to decide whether the hot path can use prom-client.
 */
import { MetricsRegistry } from '../packages/runtime/src/metrics/MetricsRegistry.ts';
import { Counter, Histogram, Registry } from 'prom-client';

const N = 2_000_000;
const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function time(label: string, run: () => void): void {
  run(); // warm up
  const start = process.hrtime.bigint();
  run();
  const ns = Number(process.hrtime.bigint() - start) / N;
  console.log(`${label.padEnd(44)} ${ns.toFixed(1)} ns/update`);
}

const own = new MetricsRegistry();
const ownEvents = own.counter({ name: 'events_total', help: 'e', labelNames: ['server'] });
const ownLatency = own.histogram({ name: 'lat_seconds', help: 'l', labelNames: ['operation'], buckets });
const prom = new Registry();
const promEvents = new Counter({
  name: 'events_total',
  help: 'e',
  labelNames: ['server'],
  registers: [prom],
});
const promLatency = new Histogram({
  name: 'lat_seconds',
  help: 'l',
  labelNames: ['operation'],
  buckets,
  registers: [prom],
});

time('own counter.inc({ server })', () => {
  for (let i = 0; i < N; i++) ownEvents.inc({ server: 'pbx' });
});
time('prom-client counter.inc({ server })', () => {
  for (let i = 0; i < N; i++) promEvents.inc({ server: 'pbx' });
});
const ownChild = ownEvents.child({ server: 'pbx' });
const promChild = promEvents.labels({ server: 'pbx' });
time('own counter child.inc()', () => {
  for (let i = 0; i < N; i++) ownChild.inc();
});
time('prom-client counter labels().inc()', () => {
  for (let i = 0; i < N; i++) promChild.inc();
});
time('own histogram.observe(v, { operation })', () => {
  for (let i = 0; i < N; i++) ownLatency.observe(0.003, { operation: 'answer' });
});
time('prom-client histogram.observe({ operation }, v)', () => {
  for (let i = 0; i < N; i++) promLatency.observe({ operation: 'answer' }, 0.003);
});
