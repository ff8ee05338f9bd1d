import type { DeviceState } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import { ChangeListeners } from './ChangeListeners.ts';

/** One of the states a device can be in (`UNKNOWN` included). */
export type DeviceStateValue = DeviceState['state'];

/** The states a controlled device may be set to: every state but `UNKNOWN`. */
export const settableDeviceStates = [
  'NOT_INUSE',
  'INUSE',
  'BUSY',
  'INVALID',
  'UNAVAILABLE',
  'RINGING',
  'RINGINUSE',
  'ONHOLD',
] as const satisfies readonly DeviceStateValue[];

const controlledPrefix = 'Stasis:';

export interface DeviceStatesOptions {
  /**
   * Computes the live state of a device the interface does not control (`Local/s@ivr` from its
   * channels, say). Asked by `get` before the last reported state; `undefined` means "no opinion".
   */
  readonly lookup?: (name: string) => DeviceStateValue | undefined;
}

/**
 * Device states: the controlled `Stasis:` devices of `/deviceStates` and the states the rest of the
 * simulator reports (channels' devices, `MWI:` mailboxes), with the real server's rules.
 *
 * Traced facts kept here: a bad or missing state answers 500 `Unknown device`; a name outside
 * `Stasis:` answers 409; any device can be read, an unknown one being `UNKNOWN` (`INVALID` without a `tech/` or `provider:`); deleting always
 * succeeds (even twice) and raises no event. Listeners hear a controlled or cached device only
 * when its state actually changes, as the server's aggregated state cache only publishes changes.
 *
 * @example
 * const devices = new DeviceStates();
 * devices.onChange((s) => core.raise({ type: 'DeviceStateChanged', device_state: s }));
 * devices.update('Stasis:desk-42', 'BUSY');
 * devices.get('Stasis:desk-42'); // { name: 'Stasis:desk-42', state: 'BUSY' }
 */
export class DeviceStates {
  /** Controlled devices by the part after `Stasis:` (the server's database key). */
  readonly #controlled = new Map<string, DeviceStateValue>();
  /** Last published state of every cached device, by full name. */
  readonly #cache = new Map<string, DeviceStateValue>();
  readonly #changes = new ChangeListeners<DeviceState>();
  readonly #lookup: ((name: string) => DeviceStateValue | undefined) | undefined;

  constructor(options: DeviceStatesOptions = {}) {
    this.#lookup = options.lookup;
  }

  /** The controlled devices, by name (as `GET /deviceStates`). */
  list(): DeviceState[] {
    return [...this.#controlled.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, state]) => ({ name: controlledPrefix + key, state }));
  }

  /**
   * The state of any device, controlled or not; `UNKNOWN` when nothing is known about it, `INVALID`
   * when its name has no technology or provider part (`fz0`).
   */
  get(name: string): DeviceState {
    const key = controlledKey(name);
    if (key !== undefined) return { name, state: this.#controlled.get(key) ?? 'UNKNOWN' };
    // devicestate.c: a name with neither a technology (`PJSIP/x`) nor a provider (`MWI:x`) is INVALID.
    const unknown = /[/:]/.test(name) ? 'UNKNOWN' : 'INVALID';
    return { name, state: this.#lookup?.(name) ?? this.#cache.get(name) ?? unknown };
  }

  /**
   * Creates or changes a controlled device (`PUT /deviceStates/{name}?deviceState=`). The state is
   * read case-insensitively; the raw query value is expected, missing included.
   */
  update(name: string, state: string | undefined): void {
    const key = controlledKey(name);
    if (key === undefined) throw new SimError(409, 'Uncontrolled device specified');
    if (key === '') throw new SimError(404, 'Device name is missing');
    const value = parseSettableState(state);
    if (!value) throw new SimError(500, 'Unknown device');
    this.#controlled.set(key, value);
    this.#publish(controlledPrefix + key, value);
  }

  /** Removes a controlled device; succeeds when it does not exist, as the server does. */
  delete(name: string): void {
    const key = controlledKey(name);
    if (key === undefined) throw new SimError(409, 'Uncontrolled device specified');
    if (key === '') throw new SimError(404, 'Device name is missing');
    this.#controlled.delete(key);
    // The server forgets the cached state without publishing (no DeviceStateChanged was traced).
    this.#cache.delete(controlledPrefix + key);
  }

  /**
   * Reports the state of a device the interface does not control, from the rest of the simulator.
   * Cachable reports (the default) reach listeners only on a change; channel devices of Local
   * channels are not cached on the server, so their every report is published.
   * Returns whether listeners were told.
   *
   * @example
   * devices.report('Local/s@stasis-ivr', 'INUSE', { cachable: false });
   * devices.report('MWI:1000@default', 'INUSE');
   */
  report(name: string, state: DeviceStateValue, options: { readonly cachable?: boolean } = {}): boolean {
    if (controlledKey(name) !== undefined) {
      throw new Error(`DeviceStates.report: '${name}' is a controlled device; change it with update()`);
    }
    if (options.cachable === false) {
      this.#changes.emit({ name, state });
      return true;
    }
    return this.#publish(name, state);
  }

  /** Calls `listener` with each published state; returns the function that stops it. */
  onChange(listener: (state: DeviceState) => void): () => void {
    return this.#changes.add(listener);
  }

  #publish(name: string, state: DeviceStateValue): boolean {
    if (this.#cache.get(name) === state) return false;
    this.#cache.set(name, state);
    this.#changes.emit({ name, state });
    return true;
  }
}

/** The database key of a controlled device (prefix matched case-insensitively), or undefined. */
function controlledKey(name: string): string | undefined {
  if (name.slice(0, controlledPrefix.length).toLowerCase() !== controlledPrefix.toLowerCase())
    return undefined;
  return name.slice(controlledPrefix.length);
}

function parseSettableState(text: string | undefined): DeviceStateValue | undefined {
  const upper = text?.toUpperCase();
  return settableDeviceStates.find((s) => s === upper);
}
