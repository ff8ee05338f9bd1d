import type { Mailbox } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import { ChangeListeners } from './ChangeListeners.ts';
import type { DeviceStates } from './DeviceStates.ts';
import type { ModuleRegistry } from './ModuleRegistry.ts';
import { parseCInt } from './parseCInt.ts';

/** A mailbox after a change; `deleted` tells a removal apart from an update. */
export interface MailboxChange {
  readonly mailbox: Mailbox;
  readonly deleted: boolean;
}

/** A mailbox's counts as the backing store keeps them: unsigned 32-bit numbers. */
export interface MailboxCounts {
  readonly msgsNew: number;
  readonly msgsOld: number;
}

export interface MailboxesOptions {
  /**
   * When given, mailboxes exist only while `res_mwi_external` runs (without it the server has no
   * mailbox resource at all: 404 `Resource not found`), and `MWI:` device states are reported only
   * while `res_mwi_devstate` runs.
   */
  readonly modules?: ModuleRegistry;
  /** Receives the `MWI:<mailbox>` device state (INUSE with new messages, else NOT_INUSE). */
  readonly deviceStates?: DeviceStates;
}

/**
 * The external message-waiting mailboxes of `/mailboxes`, which are also the astdb-backed
 * `res_mwi_external/mailboxes` objects of dynamic configuration (the trace shows a mailbox
 * created there readable here). Messages, statuses and counts follow the real server, typo
 * included (`Mailbox is does not exist` on GET).
 *
 * @example
 * const mailboxes = new Mailboxes({ modules, deviceStates });
 * mailboxes.update('1000@default', '1', '2'); // raw query values; MWI:1000@default becomes INUSE
 * mailboxes.get('1000@default'); // { name: '1000@default', old_messages: 1, new_messages: 2 }
 */
export class Mailboxes {
  readonly #store = new Map<string, MailboxCounts>();
  readonly #changes = new ChangeListeners<MailboxChange>();
  readonly #modules: ModuleRegistry | undefined;
  readonly #deviceStates: DeviceStates | undefined;

  constructor(options: MailboxesOptions = {}) {
    this.#modules = options.modules;
    this.#deviceStates = options.deviceStates;
  }

  /** Whether the module that owns mailboxes is running (always, without a module registry). */
  get available(): boolean {
    return this.#modules?.isLoaded('res_mwi_external') ?? true;
  }

  /** All mailboxes, by name. */
  list(): Mailbox[] {
    this.#requireModule();
    return [...this.#store.keys()].sort(byCodePoint).map((name) => this.#toMailbox(name));
  }

  /** One mailbox: 404 `Mailbox is does not exist` (sic) when missing. */
  get(name: string): Mailbox {
    this.#requireModule();
    if (!this.#store.has(name)) throw new SimError(404, 'Mailbox is does not exist');
    return this.#toMailbox(name);
  }

  /**
   * Sets both counts, creating the mailbox. Takes the raw query values: like the server, a missing
   * or non-numeric count is 0 (`oldMessages=abc` is accepted).
   */
  update(
    name: string,
    oldMessages: number | string | undefined,
    newMessages: number | string | undefined,
  ): void {
    this.#requireModule();
    this.writeCounts(name, { msgsOld: parseCInt(oldMessages) >>> 0, msgsNew: parseCInt(newMessages) >>> 0 });
  }

  /** Removes a mailbox: 404 `Mailbox does not exist` when missing. */
  delete(name: string): void {
    this.#requireModule();
    if (!this.removeCounts(name)) throw new SimError(404, 'Mailbox does not exist');
  }

  /** Calls `listener` after every update and delete; returns the function that stops it. */
  onChange(listener: (change: MailboxChange) => void): () => void {
    return this.#changes.add(listener);
  }

  /** The stored counts (the backing-store view used by dynamic configuration), or undefined. */
  readCounts(name: string): MailboxCounts | undefined {
    return this.#store.get(name);
  }

  /** Stores counts (unsigned 32-bit) and tells listeners and the MWI device state. */
  writeCounts(name: string, counts: MailboxCounts): void {
    this.#store.set(name, { msgsNew: counts.msgsNew >>> 0, msgsOld: counts.msgsOld >>> 0 });
    this.#changes.emit({ mailbox: this.#toMailbox(name), deleted: false });
    this.#reportMwi(name);
  }

  /** Removes a mailbox from the store; false when it was not there. */
  removeCounts(name: string): boolean {
    const counts = this.#store.get(name);
    if (!counts) return false;
    this.#store.delete(name);
    this.#changes.emit({
      mailbox: { name, old_messages: counts.msgsOld | 0, new_messages: counts.msgsNew | 0 },
      deleted: true,
    });
    this.#reportMwi(name);
    return true;
  }

  #toMailbox(name: string): Mailbox {
    const counts = this.#store.get(name) ?? { msgsNew: 0, msgsOld: 0 };
    // The server prints the unsigned counts through a signed int.
    return { name, old_messages: counts.msgsOld | 0, new_messages: counts.msgsNew | 0 };
  }

  #reportMwi(name: string): void {
    if (!this.#deviceStates) return;
    if (this.#modules && !this.#modules.isLoaded('res_mwi_devstate')) return;
    const newMessages = this.#store.get(name)?.msgsNew ?? 0;
    this.#deviceStates.report(`MWI:${name}`, newMessages > 0 ? 'INUSE' : 'NOT_INUSE');
  }

  #requireModule(): void {
    if (!this.available) throw new SimError(404, 'Resource not found');
  }
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
