import type { Counter, Gauge, MetricsRegistry } from '../metrics/MetricsRegistry.ts';

/**
 * A campaign's figures for `/metrics`, labelled with the campaign's name:
 * - `ringflow_campaign_contacts_total{campaign,outcome}`: contacts done in this run, by final
 *   outcome (a contact with a retry ahead is not done yet; one already done in the results a
 *   resumed campaign read is not counted again);
 * - `ringflow_campaign_attempts_total{campaign,outcome}`: calls placed that ended, by outcome
 *   (retries included);
 * - `ringflow_campaign_calls_in_flight{campaign}`: calls placed and not ended yet.
 *
 * One set per registry, shared by every campaign on it (see {@link campaignMetrics}).
 */
export interface CampaignMetrics {
  readonly contacts: Counter;
  readonly attempts: Counter;
  readonly inFlight: Gauge;
}

const byRegistry = new WeakMap<MetricsRegistry, CampaignMetrics>();

/**
 * The campaign metrics of a registry (the application's, `app.metrics.registry`, so they are
 * served with the runtime's at `/metrics`), registered on first use.
 *
 * @example
 * new Campaign({ ..., metrics: { registry: app.metrics.registry, campaign: 'renewals' } });
 */
export function campaignMetrics(registry: MetricsRegistry): CampaignMetrics {
  const known = byRegistry.get(registry);
  if (known) return known;
  const metrics: CampaignMetrics = {
    contacts: registry.counter({
      name: 'ringflow_campaign_contacts_total',
      help: "Campaign contacts done in this run, by final outcome (answered, busy, noAnswer, machine, failed, unknown, or the flow's own)",
      labelNames: ['campaign', 'outcome'],
    }),
    attempts: registry.counter({
      name: 'ringflow_campaign_attempts_total',
      help: 'Campaign calls that ended, by outcome, retries included',
      labelNames: ['campaign', 'outcome'],
    }),
    inFlight: registry.gauge({
      name: 'ringflow_campaign_calls_in_flight',
      help: 'Campaign calls placed and not ended yet',
      labelNames: ['campaign'],
    }),
  };
  byRegistry.set(registry, metrics);
  return metrics;
}
