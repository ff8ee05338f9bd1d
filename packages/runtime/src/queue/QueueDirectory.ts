import type { Clock } from '@ringflow/client';
import type { Logger } from 'pino';
import { agentDevice, agentFromDevice } from './agentDevice.ts';
import { CallQueue, type QueueObserver } from './CallQueue.ts';
import { LocalQueueStore } from './LocalQueueStore.ts';
import { RING_STRATEGIES, type QueueSettings } from './QueueState.ts';
import type { QueueStore } from './QueueStore.ts';

/** A device state as the server reports it. */
export interface DeviceStateReport {
  readonly name: string;
  readonly state: string;
}

/**
 * Where a queue's agents' device states live: the server the queue is on, through one of the
 * application's connections to it (a link; a per-call connection is one too).
 */
export interface AgentDevices {
  /** The server's device states (`deviceStates.list`). */
  list(): Promise<readonly DeviceStateReport[]>;
  /** Asks the server for this device's changes (`DeviceStateChanged`, see `deviceChanged`). */
  watch(device: string): Promise<void>;
}

/**
 * The call queues of an application, one per server and name: callers and agents of a queue
 * must be on the same server to be bridged. A queue is made on first use, with the settings the
 * application was given for it (`createApplication({ queues })`) or else those of the first call
 * that asks for it (a flow's `queues:` section); a later call asking with other settings gets
 * the queue as it is, and the log says so.
 */
export class QueueDirectory {
  readonly #queues = new Map<string, CallQueue>();
  /** The connections through which each queue (by key) reads and follows its agents' devices. */
  readonly #following = new Map<string, WeakSet<AgentDevices>>();
  readonly #store: QueueStore;
  readonly #configured: Readonly<Record<string, QueueSettings>>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #observer: QueueObserver | undefined;

  constructor(options: {
    readonly configured?: Readonly<Record<string, QueueSettings>>;
    readonly clock: Clock;
    readonly logger: Logger;
    readonly observer?: QueueObserver;
    /** Where the queues' state lives: this process by default, or a store shared by a cluster. */
    readonly store?: QueueStore;
  }) {
    this.#store = options.store ?? new LocalQueueStore();
    this.#configured = options.configured ?? {};
    for (const [name, settings] of Object.entries(this.#configured)) checkQueueSettings(name, settings);
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#observer = options.observer;
  }

  /**
   * The queue `name` on `server`; throws when it is neither configured nor given settings. The
   * first time a connection (`devices`) asks for a queue, the queue reads its agents' status back
   * from the server's device states through it (see `agentDevice`: agents paused or logged out
   * before a restart stay so) and follows them there. A per-call connection is one per call, and
   * its events end with its call: each one reads and follows them while its call lasts.
   */
  get(server: string, name: string, settings?: QueueSettings, devices?: AgentDevices): CallQueue {
    const key = `${server}\u0000${name}`;
    const existing = this.#queues.get(key);
    if (existing) {
      if (settings && !this.#configured[name] && !sameSettings(existing.settings, settings))
        this.#logger.warn(
          { queue: name, server, settings, kept: existing.settings },
          `queue ${name}: already open with other settings; the call joins it as it is`,
        );
      if (devices) this.#followThrough(key, server, existing, devices);
      return existing;
    }
    const chosen = this.#configured[name] ?? settings;
    if (!chosen)
      throw new Error(
        `queue "${name}" is not configured: give its settings (createApplication({ queues: { ${name}: {...} } }), or the flow's queues: section)`,
      );
    checkQueueSettings(name, chosen);
    const queue = new CallQueue(name, chosen, this.#clock, this.#observer, { store: this.#store, server });
    this.#queues.set(key, queue);
    if (devices) this.#followThrough(key, server, queue, devices);
    return queue;
  }

  /** Reads and follows the agents' devices through `devices`, once per connection. */
  #followThrough(key: string, server: string, queue: CallQueue, devices: AgentDevices): void {
    const following = this.#following.get(key) ?? new WeakSet<AgentDevices>();
    this.#following.set(key, following);
    if (following.has(devices)) return;
    following.add(devices);
    void this.#followAgents(server, queue, devices);
  }

  /**
   * A device state changed on `server` (a `DeviceStateChanged` event): an agent's status
   * published by another process, a supervisor's tool or this one is applied to its queue.
   */
  deviceChanged(server: string, device: DeviceStateReport): void {
    for (const [key, queue] of this.#queues) {
      if (!key.startsWith(`${server}\u0000`)) continue;
      const found = agentFromDevice(queue.name, device);
      if (found) for (const action of found.actions) queue.agent(found.agent, action);
    }
  }

  /**
   * Applies the agents' status published on the server (the queue was just made: configured
   * agents only), then follows each agent's device so later changes reach the queue.
   */
  async #followAgents(server: string, queue: CallQueue, devices: AgentDevices): Promise<void> {
    try {
      for (const device of await devices.list()) this.deviceChanged(server, device);
      await Promise.all(queue.state.agents.map((a) => devices.watch(agentDevice(queue.name, a.endpoint))));
    } catch (error) {
      this.#logger.warn(
        { queue: queue.name, err: error },
        `queue ${queue.name}: could not read or follow its agents' device states; the configured agents are logged in`,
      );
    }
  }

  /** Every queue open now. */
  all(): CallQueue[] {
    return [...this.#queues.values()];
  }

  stop(): void {
    for (const q of this.#queues.values()) q.stop();
    this.#queues.clear();
    this.#following.clear();
  }
}

function sameSettings(a: QueueSettings, b: QueueSettings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Bad settings are refused when the queue is configured, naming the field. */
export function checkQueueSettings(name: string, settings: QueueSettings): void {
  const problem = (field: string, expected: string, got: unknown) =>
    new Error(`queue "${name}": ${field} must be ${expected}, got ${JSON.stringify(got)}`);
  if (
    !Array.isArray(settings.agents) ||
    settings.agents.some((a) => typeof a !== 'string' || !a.includes('/'))
  )
    throw problem('agents', 'a list of endpoints like "PJSIP/alice"', settings.agents);
  if (!RING_STRATEGIES.includes(settings.strategy))
    throw problem('strategy', `one of ${RING_STRATEGIES.join(', ')}`, settings.strategy);
  for (const field of ['ringTimeoutMs', 'wrapUpMs', 'retryMs'] as const) {
    const value = settings[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw problem(field, 'a duration in milliseconds (0 or more)', value);
  }
  if (settings.ringTimeoutMs < 1000)
    throw problem('ringTimeoutMs', 'at least 1000 (1 s)', settings.ringTimeoutMs);
}
