/**
 * A small metrics registry: counters, gauges and histograms with labels, rendered in the
 * Prometheus text exposition format (0.0.4) or as a plain object.
 *
 * Written here rather than taken from prom-client because the runtime needs one registry per
 * application (prom-client's default registry is process-wide and collects process metrics on
 * timers), no background timers at all (leak tests count timers), and snapshots as plain data.
 */

/** Label names and values of one series: `{ status: '404' }`. */
export type Labels = Readonly<Record<string, string | number>>;

/** One sample of a metric as plain data. */
export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A histogram series as plain data: cumulative bucket counts, sum and count. */
export interface HistogramSample {
  readonly labels: Readonly<Record<string, string>>;
  /** Cumulative counts keyed by upper bound (`'0.005'`, ..., `'+Inf'`). */
  readonly buckets: Readonly<Record<string, number>>;
  readonly sum: number;
  readonly count: number;
}

/** Every metric of a registry as plain data, keyed by metric name. */
export type MetricsSnapshot = Record<
  string,
  | { readonly type: 'counter' | 'gauge'; readonly help: string; readonly samples: readonly MetricSample[] }
  | { readonly type: 'histogram'; readonly help: string; readonly samples: readonly HistogramSample[] }
>;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function labelKey(labels: Labels | undefined): string {
  if (!labels) return '';
  // The common case (one label: every metric the runtime updates per event or per request)
  // without the array, sort and join of the general one.
  let only: string | undefined;
  let count = 0;
  for (const k in labels) {
    only = k;
    if (++count > 1) break;
  }
  if (count === 0) return '';
  if (count === 1) return `${only}=${String(labels[only!])}`;
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${String(labels[k])}`)
    .join('\u0000');
}

function normaliseLabels(metric: string, allowed: readonly string[], labels: Labels | undefined) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (!allowed.includes(k)) {
      throw new Error(
        `metric ${metric}: unknown label "${k}"; declared labels are [${allowed.join(', ')}]. ` +
          'Declare the label when creating the metric.',
      );
    }
    out[k] = String(v);
  }
  return out;
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatLabels(labels: Readonly<Record<string, string>>, extra?: [string, string]): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabelValue(v)}"`);
  if (extra) pairs.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(n);
}

interface MetricOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
}

abstract class Metric {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];

  constructor(options: MetricOptions) {
    if (!METRIC_NAME.test(options.name)) {
      throw new Error(`metric name "${options.name}" is not valid: use letters, digits, _ and :`);
    }
    for (const l of options.labelNames ?? []) {
      if (!LABEL_NAME.test(l)) throw new Error(`metric ${options.name}: label name "${l}" is not valid`);
    }
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames ?? [];
  }

  abstract render(): string[];
}

/** A value that only goes up (calls started, REST errors). */
export class Counter extends Metric {
  private readonly series = new Map<string, { labels: Record<string, string>; value: number }>();

  /** Adds `amount` (default 1) to the series with these labels. */
  inc(labels?: Labels, amount = 1): void {
    if (amount < 0) throw new Error(`counter ${this.name}: cannot decrease (got ${amount}); use a gauge`);
    const key = labelKey(labels);
    const s = this.series.get(key);
    if (s) s.value += amount;
    else this.series.set(key, { labels: normaliseLabels(this.name, this.labelNames, labels), value: amount });
  }

  /** Current value of one series (0 when never incremented). */
  get(labels?: Labels): number {
    return this.series.get(labelKey(labels))?.value ?? 0;
  }

  /**
   * The series with these labels, to count into without looking it up each time (hot paths keep
   * one per label value). It shows from now on, at 0 until counted.
   *
   * @example
   * const fromPbx = events.child({ server: 'pbx' }); fromPbx.inc();
   */
  child(labels?: Labels): { inc(amount?: number): void } {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels: normaliseLabels(this.name, this.labelNames, labels), value: 0 };
      this.series.set(key, s);
    }
    const series = s;
    const name = this.name;
    return {
      inc(amount = 1) {
        if (amount < 0) throw new Error(`counter ${name}: cannot decrease (got ${amount}); use a gauge`);
        series.value += amount;
      },
    };
  }

  /** Sum over every series. */
  total(): number {
    let t = 0;
    for (const s of this.series.values()) t += s.value;
    return t;
  }

  /**
   * Sum over the series whose labels include these (the others any value).
   *
   * @example callsEnded.sum({ status: 'hungUp' }) // every hung-up call, whoever ended it, any app
   */
  sum(labels: Labels): number {
    let t = 0;
    for (const s of this.series.values()) {
      if (Object.entries(labels).every(([name, value]) => s.labels[name] === String(value))) t += s.value;
    }
    return t;
  }

  samples(): MetricSample[] {
    return [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.value }));
  }

  render(): string[] {
    return [...this.series.values()].map(
      (s) => `${this.name}${formatLabels(s.labels)} ${formatNumber(s.value)}`,
    );
  }
}

/** A value that goes up and down (active calls). */
export class Gauge extends Metric {
  private readonly series = new Map<string, { labels: Record<string, string>; value: number }>();

  set(value: number, labels?: Labels): void {
    const key = labelKey(labels);
    const s = this.series.get(key);
    if (s) s.value = value;
    else this.series.set(key, { labels: normaliseLabels(this.name, this.labelNames, labels), value });
  }

  inc(labels?: Labels, amount = 1): void {
    this.set(this.get(labels) + amount, labels);
  }

  dec(labels?: Labels, amount = 1): void {
    this.set(this.get(labels) - amount, labels);
  }

  get(labels?: Labels): number {
    return this.series.get(labelKey(labels))?.value ?? 0;
  }

  samples(): MetricSample[] {
    return [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.value }));
  }

  render(): string[] {
    return [...this.series.values()].map(
      (s) => `${this.name}${formatLabels(s.labels)} ${formatNumber(s.value)}`,
    );
  }
}

interface HistogramSeries {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  count: number;
}

/** Observations counted into buckets (REST latency in seconds). */
export class Histogram extends Metric {
  readonly buckets: readonly number[];
  private readonly series = new Map<string, HistogramSeries>();

  constructor(options: MetricOptions & { readonly buckets: readonly number[] }) {
    super(options);
    const sorted = [...options.buckets].sort((a, b) => a - b);
    if (sorted.length === 0) throw new Error(`histogram ${options.name}: give at least one bucket bound`);
    this.buckets = sorted;
  }

  private seriesOf(labels: Labels | undefined): HistogramSeries {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: normaliseLabels(this.name, this.labelNames, labels),
        counts: this.buckets.map(() => 0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    return s;
  }

  /**
   * The series with these labels, to observe into without looking it up each time (see
   * {@link Counter.child}).
   */
  child(labels?: Labels): { observe(value: number): void } {
    const series = this.seriesOf(labels);
    return { observe: (value) => this.record(series, value) };
  }

  observe(value: number, labels?: Labels): void {
    this.record(this.seriesOf(labels), value);
  }

  private record(s: HistogramSeries, value: number): void {
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  samples(): HistogramSample[] {
    return [...this.series.values()].map((s) => {
      const buckets: Record<string, number> = {};
      this.buckets.forEach((b, i) => {
        buckets[formatNumber(b)] = s.counts[i]!;
      });
      buckets['+Inf'] = s.count;
      return { labels: { ...s.labels }, buckets, sum: s.sum, count: s.count };
    });
  }

  render(): string[] {
    const lines: string[] = [];
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => {
        lines.push(`${this.name}_bucket${formatLabels(s.labels, ['le', formatNumber(b)])} ${s.counts[i]}`);
      });
      lines.push(`${this.name}_bucket${formatLabels(s.labels, ['le', '+Inf'])} ${s.count}`);
      lines.push(`${this.name}_sum${formatLabels(s.labels)} ${formatNumber(s.sum)}`);
      lines.push(`${this.name}_count${formatLabels(s.labels)} ${s.count}`);
    }
    return lines;
  }
}

/**
 * Holds the metrics of one application.
 *
 * @example
 * const registry = new MetricsRegistry();
 * const calls = registry.counter({ name: 'calls_total', help: 'Calls started' });
 * calls.inc();
 * registry.toPrometheus(); // '# HELP calls_total Calls started\n# TYPE calls_total counter\ncalls_total 1\n'
 */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Counter | Gauge | Histogram>();
  /** Run before each read (see {@link beforeRead}). */
  private readonly refreshers: (() => void)[] = [];

  /**
   * Runs `refresh` before each read of the registry (`toPrometheus`, `toJSON`): for metrics whose
   * values live elsewhere (a role's state, a count kept by another package), set then.
   *
   * @example registry.beforeRead(() => holding.set(cluster.holding ? 1 : 0));
   */
  beforeRead(refresh: () => void): void {
    this.refreshers.push(refresh);
  }

  counter(options: MetricOptions): Counter {
    return this.add(new Counter(options));
  }

  gauge(options: MetricOptions): Gauge {
    return this.add(new Gauge(options));
  }

  histogram(options: MetricOptions & { readonly buckets: readonly number[] }): Histogram {
    return this.add(new Histogram(options));
  }

  private add<M extends Counter | Gauge | Histogram>(metric: M): M {
    if (this.metrics.has(metric.name)) {
      throw new Error(`metric ${metric.name} is already registered; reuse the existing one`);
    }
    this.metrics.set(metric.name, metric);
    return metric;
  }

  /** The Prometheus text exposition format, ready to serve at `/metrics`. */
  toPrometheus(): string {
    for (const refresh of this.refreshers) refresh();
    let out = '';
    for (const m of this.metrics.values()) {
      const type = m instanceof Counter ? 'counter' : m instanceof Gauge ? 'gauge' : 'histogram';
      out += `# HELP ${m.name} ${m.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${m.name} ${type}\n`;
      for (const line of m.render()) out += `${line}\n`;
    }
    return out;
  }

  /** Every metric as plain data (for tests, JSON endpoints, dashboards). */
  toJSON(): MetricsSnapshot {
    for (const refresh of this.refreshers) refresh();
    const out: MetricsSnapshot = {};
    for (const m of this.metrics.values()) {
      if (m instanceof Histogram) out[m.name] = { type: 'histogram', help: m.help, samples: m.samples() };
      else
        out[m.name] = {
          type: m instanceof Counter ? 'counter' : 'gauge',
          help: m.help,
          samples: m.samples(),
        };
    }
    return out;
  }
}
