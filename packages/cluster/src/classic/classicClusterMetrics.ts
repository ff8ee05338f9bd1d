import type { Counter, MetricsRegistry } from '@ringflow/runtime';

/** What the metrics read of a classic cluster process (a `ClassicCluster`). */
export interface ObservedClassicCluster {
  /** This process holds the server's event connection and it is open. */
  readonly holding: boolean;
  /** This worker let its lease go (NATS did not answer): it drives no call until it holds it again. */
  readonly fenced: boolean;
  /** The workers listed live at this worker's last turn, itself included. */
  readonly liveWorkers: ReadonlySet<string>;
  /** Times this process lost the event connection's lease while it held it. */
  readonly holderLeasesLost: number;
  /** Calls this worker took over from gone workers (or took back after a fence). */
  readonly callsTakenOver: number;
}

/**
 * The cluster's roles in an application's metrics (`/metrics` of `ringflow run --http`), read
 * at each scrape:
 * - `ringflow_cluster_holding` 1 on the process that holds the event connection, 0 elsewhere: the
 *   sum over the processes is 1 (0 for a moment during a holder change);
 * - `ringflow_cluster_fenced` 1 while the worker has let its lease go;
 * - `ringflow_cluster_workers` the live workers this process sees (all processes should agree);
 * - `ringflow_cluster_holder_leases_lost_total` holder changes this process caused by losing its
 *   lease (a process short of CPU, or cut from NATS: each is a gap for every call);
 * - `ringflow_cluster_calls_taken_over_total` calls this worker took from gone workers.
 *
 * @example observeClassicCluster(app.metrics.registry, cluster);
 */
export function observeClassicCluster(registry: MetricsRegistry, cluster: ObservedClassicCluster): void {
  const holding = registry.gauge({
    name: 'ringflow_cluster_holding',
    help: 'Whether this process holds the server event connection (1) or not (0)',
  });
  const fenced = registry.gauge({
    name: 'ringflow_cluster_fenced',
    help: 'Whether this worker has let its lease go and drives no call until it holds it again',
  });
  const workers = registry.gauge({
    name: 'ringflow_cluster_workers',
    help: 'Live workers of the cluster as this process listed them last',
  });
  const leasesLost = registry.counter({
    name: 'ringflow_cluster_holder_leases_lost_total',
    help: 'Times this process lost the event connection lease while holding it',
  });
  const takenOver = registry.counter({
    name: 'ringflow_cluster_calls_taken_over_total',
    help: 'Calls this worker took over from workers whose lease lapsed',
  });
  // Shown from the start, at 0 until counted.
  leasesLost.child();
  takenOver.child();
  // Counted by the roles as they happen; the counters catch up at each read (never down).
  const catchUp = (counter: Counter, total: number) => {
    const behind = total - counter.get();
    if (behind > 0) counter.inc(undefined, behind);
  };
  registry.beforeRead(() => {
    holding.set(cluster.holding ? 1 : 0);
    fenced.set(cluster.fenced ? 1 : 0);
    workers.set(cluster.liveWorkers.size);
    catchUp(leasesLost, cluster.holderLeasesLost);
    catchUp(takenOver, cluster.callsTakenOver);
  });
}
