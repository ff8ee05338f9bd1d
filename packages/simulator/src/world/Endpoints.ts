import type { Endpoint as EndpointJson } from '@ringflow/client';
import type { FarEndConfig } from './FarEndBehaviour.ts';

export type EndpointState = 'unknown' | 'offline' | 'online';

/** One endpoint (`PJSIP/alice`): a device channels are made to or from. */
export class SimEndpoint {
  state: EndpointState = 'online';
  readonly channelIds = new Set<string>();
  /** How its far end behaves when dialled; undefined: it answers after the simulator's delay. */
  farEnd: FarEndConfig | undefined;
  /** Calls made to it so far (picks the behaviour of the next one from a list). */
  dialled = 0;
  constructor(
    readonly technology: string,
    readonly resource: string,
  ) {}

  get key(): string {
    return `${this.technology}/${this.resource}`;
  }

  toJson(): EndpointJson {
    return {
      technology: this.technology,
      resource: this.resource,
      state: this.state,
      channel_ids: [...this.channelIds],
    };
  }
}

/**
 * The endpoints of the server. A technology endpoint (all of `PJSIP`) appears implicitly with the
 * first endpoint of its technology; it has no state, no channels, raises no events, is never
 * listed as an endpoint and is removed only at shutdown.
 */
export class Endpoints {
  private readonly byKey = new Map<string, SimEndpoint>();
  private readonly technologies = new Set<string>();

  /**
   * @param unknown what dialling an endpoint never configured does (see SimulatorOptions'
   * `unknownEndpoints`): `'fail'` as on a real server, or `'ring'` (it is made as it is dialled).
   */
  constructor(readonly unknown: 'fail' | 'ring' = 'fail') {}

  /** Returns the endpoint, creating it (and its technology endpoint) the first time. */
  ensure(technology: string, resource: string): SimEndpoint {
    const key = `${technology}/${resource}`;
    let ep = this.byKey.get(key);
    if (!ep) {
      ep = new SimEndpoint(technology, resource);
      this.byKey.set(key, ep);
      this.technologies.add(technology);
    }
    return ep;
  }

  /** Makes the endpoint exist with the far-end behaviour its calls get. */
  configure(technology: string, resource: string, farEnd: FarEndConfig | undefined): SimEndpoint {
    const ep = this.ensure(technology, resource);
    ep.farEnd = farEnd;
    return ep;
  }

  get(technology: string, resource: string): SimEndpoint | undefined {
    return this.byKey.get(`${technology}/${resource}`);
  }

  /** Finds an endpoint by technology written in any case (`pjsip:alice` in a message address). */
  find(technology: string, resource: string): SimEndpoint | undefined {
    for (const ep of this.byKey.values()) {
      if (ep.technology.toLowerCase() === technology.toLowerCase() && ep.resource === resource) return ep;
    }
    return undefined;
  }

  list(): SimEndpoint[] {
    return [...this.byKey.values()];
  }

  listByTech(technology: string): SimEndpoint[] {
    return this.list().filter((ep) => ep.technology === technology);
  }

  /** True when a technology endpoint exists (a subscription to `endpoint:PJSIP` can be made). */
  hasTechnology(technology: string): boolean {
    return this.technologies.has(technology);
  }
}
