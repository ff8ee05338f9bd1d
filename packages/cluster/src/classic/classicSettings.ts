import { ErrorCode, RingflowError } from '@ringflow/client';
import type { HeldServer } from '../EventConnectionHolder.ts';

/** The timings and names a classic cluster runs with, checked (see `ClassicClusterOptions`). */
export interface ClassicSettings {
  readonly ttlMs: number;
  readonly renewMs: number;
  readonly holderRenewMs: number;
  readonly holderTakeoverMs: number;
  readonly eventsMaxAgeMs: number;
  readonly replicas: number;
  readonly server: HeldServer;
}

/**
 * Checks a classic cluster's options and fills in the defaults; settings that cannot work are a
 * configuration error naming the option and what it must be.
 */
export function classicSettings(options: {
  readonly server: {
    readonly url: string;
    readonly username: string;
    readonly password: string;
    readonly name?: string;
  };
  readonly leaseTtlMs?: number;
  readonly renewMs?: number;
  readonly holderRenewMs?: number;
  readonly holderTakeoverMs?: number;
  readonly eventsMaxAgeMs?: number;
  readonly replicas?: number;
}): ClassicSettings {
  const ttlMs = options.leaseTtlMs ?? 5_000;
  const renewMs = options.renewMs ?? 1_000;
  if (!Number.isFinite(ttlMs) || !Number.isFinite(renewMs) || renewMs < 50 || ttlMs < 3 * renewMs)
    throw new RingflowError(
      ErrorCode.CONFIG,
      `ClassicCluster: leaseTtlMs ${String(ttlMs)} and renewMs ${String(renewMs)}: give renewMs of at least 50 ms and a lease TTL of at least 3 renewals (default 5000 and 1000).`,
    );
  const holderRenewMs = options.holderRenewMs ?? 200;
  const holderTakeoverMs = options.holderTakeoverMs ?? 800;
  if (
    !Number.isFinite(holderRenewMs) ||
    !Number.isFinite(holderTakeoverMs) ||
    holderRenewMs < 20 ||
    holderTakeoverMs < 3 * holderRenewMs ||
    holderTakeoverMs >= ttlMs
  )
    throw new RingflowError(
      ErrorCode.CONFIG,
      `ClassicCluster: holderRenewMs ${String(holderRenewMs)} and holderTakeoverMs ${String(holderTakeoverMs)}: give holderRenewMs of at least 20 ms and a takeover time of at least 3 holder renewals, below the lease TTL (default 200 and 800).`,
    );
  let name = options.server.name;
  if (name === undefined) {
    try {
      name = new URL(options.server.url).host;
    } catch {
      throw new RingflowError(ErrorCode.CONFIG, `ClassicCluster: "${options.server.url}" is not a URL.`);
    }
  }
  const replicas = options.replicas ?? 1;
  if (replicas !== 1 && replicas !== 3 && replicas !== 5)
    throw new RingflowError(
      ErrorCode.CONFIG,
      `ClassicCluster: replicas is ${String(replicas)}: give 1, 3 or 5 (copies in a NATS cluster).`,
    );
  return {
    ttlMs,
    renewMs,
    holderRenewMs,
    holderTakeoverMs,
    eventsMaxAgeMs: options.eventsMaxAgeMs ?? 10 * 60 * 1000,
    replicas,
    server: { ...options.server, name },
  };
}
