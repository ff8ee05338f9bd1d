/**
 * A small set of listeners for one kind of change. Facilities use it for their `onChange`: the
 * simulator core subscribes once and turns each change into the events a real server raises.
 *
 * A listener that throws does not stop the others nor the change itself: the change has already
 * happened in the store, so the error is collected and rethrown once everyone was told.
 *
 * @example
 * const changes = new ChangeListeners<DeviceState>();
 * const off = changes.add((s) => console.log(s.name, s.state));
 * changes.emit({ name: 'Stasis:desk', state: 'BUSY' });
 * off();
 */
export class ChangeListeners<T> {
  readonly #listeners = new Set<(change: T) => void>();

  /** Adds a listener; returns the function that removes it. */
  add(listener: (change: T) => void): () => void {
    // Wrap so the same function can be added twice and removed independently.
    const entry = (change: T) => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Tells every listener, in the order they were added. */
  emit(change: T): void {
    const errors: unknown[] = [];
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} change listeners failed`);
  }

  get size(): number {
    return this.#listeners.size;
  }
}
