import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './MetricsRegistry.ts';

describe('MetricsRegistry', () => {
  it('renders counters, gauges and histograms in the Prometheus text format', () => {
    const r = new MetricsRegistry();
    const errors = r.counter({ name: 'rest_errors_total', help: 'REST errors', labelNames: ['status'] });
    const active = r.gauge({ name: 'active_calls', help: 'Active calls' });
    const latency = r.histogram({ name: 'latency_seconds', help: 'Latency', buckets: [0.1, 1] });
    errors.inc({ status: 404 });
    errors.inc({ status: 404 });
    errors.inc({ status: 409 });
    active.inc();
    active.inc();
    active.dec();
    latency.observe(0.05);
    latency.observe(0.5);
    latency.observe(3);
    expect(r.toPrometheus()).toBe(
      [
        '# HELP rest_errors_total REST errors',
        '# TYPE rest_errors_total counter',
        'rest_errors_total{status="404"} 2',
        'rest_errors_total{status="409"} 1',
        '# HELP active_calls Active calls',
        '# TYPE active_calls gauge',
        'active_calls 1',
        '# HELP latency_seconds Latency',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{le="0.1"} 1',
        'latency_seconds_bucket{le="1"} 2',
        'latency_seconds_bucket{le="+Inf"} 3',
        'latency_seconds_sum 3.55',
        'latency_seconds_count 3',
        '',
      ].join('\n'),
    );
  });

  it('gives the same numbers as plain data', () => {
    const r = new MetricsRegistry();
    r.counter({ name: 'c_total', help: 'c', labelNames: ['a'] }).inc({ a: 'x' }, 3);
    r.histogram({ name: 'h', help: 'h', buckets: [1] }).observe(2);
    expect(r.toJSON()).toEqual({
      c_total: { type: 'counter', help: 'c', samples: [{ labels: { a: 'x' }, value: 3 }] },
      h: {
        type: 'histogram',
        help: 'h',
        samples: [{ labels: {}, buckets: { '1': 0, '+Inf': 1 }, sum: 2, count: 1 }],
      },
    });
  });

  it('runs what was given to beforeRead before each read, text or data', () => {
    const r = new MetricsRegistry();
    const held = r.gauge({ name: 'held', help: 'Held elsewhere' });
    let elsewhere = 1;
    r.beforeRead(() => held.set(elsewhere));
    expect(r.toPrometheus()).toContain('held 1\n');
    elsewhere = 0;
    expect(r.toJSON().held?.samples).toEqual([{ labels: {}, value: 0 }]);
  });

  it('escapes label values', () => {
    const r = new MetricsRegistry();
    r.counter({ name: 'c_total', help: 'c', labelNames: ['v'] }).inc({ v: 'a"b\\c\nd' });
    expect(r.toPrometheus()).toContain('c_total{v="a\\"b\\\\c\\nd"} 1');
  });

  it('rejects undeclared labels, duplicate names and decreasing counters with a hint', () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'c_total', help: 'c' });
    expect(() => c.inc({ status: 1 })).toThrow(/unknown label "status".*Declare the label/);
    expect(() => c.inc(undefined, -1)).toThrow(/cannot decrease/);
    expect(() => r.gauge({ name: 'c_total', help: 'again' })).toThrow(/already registered/);
    expect(() => r.gauge({ name: 'bad-name', help: 'x' })).toThrow(/not valid/);
  });

  it('children count into the same series as labelled calls, and refuse unknown labels and decreases', () => {
    const r = new MetricsRegistry();
    const events = r.counter({ name: 'events_total', help: 'Events', labelNames: ['server'] });
    const latency = r.histogram({ name: 'lat_seconds', help: 'Latency', labelNames: ['op'], buckets: [1] });
    const pbx = events.child({ server: 'pbx' });
    pbx.inc();
    pbx.inc(2);
    events.inc({ server: 'pbx' });
    expect(events.get({ server: 'pbx' })).toBe(4);
    expect(() => pbx.inc(-1)).toThrow(/cannot decrease/);
    expect(() => events.child({ region: 'eu' })).toThrow(/region/);
    latency.child({ op: 'answer' }).observe(0.5);
    latency.observe(2, { op: 'answer' });
    expect(latency.samples()).toEqual([
      { labels: { op: 'answer' }, buckets: { '1': 1, '+Inf': 2 }, sum: 2.5, count: 2 },
    ]);
  });
});
