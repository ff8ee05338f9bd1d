import type { Observable } from 'rxjs';
import { BehaviorSubject } from '../rx.ts';
import { type Actor, assign, createActor, setup } from 'xstate';
import { applyQueueChange, type QueueChange, type QueueState, type QueueStep } from './QueueState.ts';
import type { QueueCell, QueueStore } from './QueueStore.ts';

// No action is created at run time: a queue is made, and changed, from inside the callers' own
// actions, where XState's development build warns about `assign` created then (including the one
// a context factory makes). So the action is made once here and each queue's machine starts from
// a ready context.
const queueSetup = setup({
  types: {
    context: {} as QueueStep,
    events: {} as QueueChange,
  },
  actions: {
    apply: assign(({ context, event }) => applyQueueChange(context.state, event)),
  },
});

function queueMachine(initial: QueueState) {
  return queueSetup.createMachine({
    id: 'queue',
    context: { state: initial, notices: [] },
    on: { '*': { actions: 'apply' } },
  });
}

/**
 * A queue kept in this process: an XState actor applies each change at once (synchronously) and
 * its steps follow. The default: callers and agents of one process.
 */
class LocalQueueCell implements QueueCell {
  readonly #actor: Actor<ReturnType<typeof queueMachine>>;
  readonly #steps: BehaviorSubject<QueueStep>;
  readonly staleOfferMs = undefined;

  constructor(initial: QueueState) {
    this.#actor = createActor(queueMachine(initial));
    this.#steps = new BehaviorSubject<QueueStep>({ state: initial, notices: [] });
    this.#actor.subscribe(({ context }) => {
      if (context !== this.#steps.value) this.#steps.next(context);
    });
    this.#actor.start();
  }

  get steps$(): Observable<QueueStep> {
    return this.#steps.asObservable();
  }

  get state(): QueueState {
    return this.#actor.getSnapshot().context.state;
  }

  change(change: QueueChange, applied?: (before: QueueState) => void): void {
    const before = this.state;
    this.#actor.send(change);
    applied?.(before);
  }

  close(): void {
    this.#actor.stop();
  }
}

/** The queues of one process, each an actor of its own (see {@link LocalQueueCell}). */
export class LocalQueueStore implements QueueStore {
  open(_server: string, _name: string, initial: QueueState): QueueCell {
    return new LocalQueueCell(initial);
  }
}
