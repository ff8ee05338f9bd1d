import { MetricsRegistry } from '@ringflow/runtime';
import { describe, expect, it } from 'vitest';
import { observeClassicCluster } from './classicClusterMetrics.ts';

describe('observeClassicCluster', () => {
  it('shows the roles as they are at each scrape; the counts never go down', () => {
    const registry = new MetricsRegistry();
    const cluster = {
      holding: true,
      fenced: false,
      liveWorkers: new Set(['a', 'b', 'c']),
      holderLeasesLost: 0,
      callsTakenOver: 0,
    };
    observeClassicCluster(registry, cluster);
    const read = () =>
      Object.fromEntries(
        registry
          .toPrometheus()
          .split('\n')
          .filter((l) => l.startsWith('ringflow_cluster_'))
          .map((l) => l.split(' ') as [string, string]),
      );
    expect(read()).toEqual({
      ringflow_cluster_holding: '1',
      ringflow_cluster_fenced: '0',
      ringflow_cluster_workers: '3',
      ringflow_cluster_holder_leases_lost_total: '0',
      ringflow_cluster_calls_taken_over_total: '0',
    });
    // The holder lost its lease and was fenced; it took over 4 calls of a gone worker meanwhile.
    Object.assign(cluster, { holding: false, fenced: true, holderLeasesLost: 1, callsTakenOver: 4 });
    cluster.liveWorkers.delete('c');
    expect(read()).toMatchObject({
      ringflow_cluster_holding: '0',
      ringflow_cluster_fenced: '1',
      ringflow_cluster_workers: '2',
      ringflow_cluster_holder_leases_lost_total: '1',
      ringflow_cluster_calls_taken_over_total: '4',
    });
    // Read twice: counted once.
    expect(read().ringflow_cluster_calls_taken_over_total).toBe('4');
  });
});
