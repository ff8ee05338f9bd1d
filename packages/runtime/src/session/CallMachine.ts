import { type Actor, type AnyEventObject, type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import type { CallHandle, CallInput } from '../call/CallHandle.ts';
import { bindCallToSystem } from '../call/callOfSystem.ts';
import { EffectRunner, type PersistedEffects } from '../engine/EffectRunner.ts';
import type { CallRecord } from '../snapshot/CallRecord.ts';
import { registeredRevivers, reviveLiveValues, toPlainData } from '../snapshot/liveValues.ts';
import type { MachineAtEnd } from './CallReport.ts';
import { type MachineEventFilter, machineEventFilter } from './machineEventFilter.ts';
import type { TrackingClock } from './TrackingClock.ts';

/** What a {@link CallMachine} needs besides the machine and the call's handle. */
export interface CallMachineOptions {
  /** The call's clock: the actor's delays and the engine's timers run on it. */
  readonly clock: TrackingClock;
  /** Where the machine's own log calls go (XState's `logger`). */
  readonly logger: (...args: unknown[]) => void;
  /**
   * The call's record, when the call is taken over: the machine goes on from its snapshot (its
   * markers revived with this process's live objects); none: it starts in its initial state.
   */
  readonly record?: CallRecord;
  /** The machine reached a final state. */
  readonly onDone: () => void;
  /** The machine failed (an unhandled error event, an action that threw). */
  readonly onError: (error: unknown) => void;
  /** The machine took a step (the call's record is due); none: nobody follows its steps. */
  readonly onStep?: () => void;
}

/**
 * The XState actor that runs one call's machine: made with the call's handle as its input, on the
 * call's clock, fresh or from a record's snapshot (see {@link CallMachineOptions.record}), with
 * the call bound to its actor system (call actors invoked without `call` act on this one). It is
 * given only the events some state of the machine handles (see {@link machineEventFilter}), and
 * only while it runs; at the end, {@link stop} says where it was.
 *
 * @example
 * const machine = new CallMachine(definition, handle, { clock, logger, onDone, onError });
 * machine.start();
 * machine.tell(event);
 */
export class CallMachine {
  readonly actor: Actor<AnyStateMachine>;
  /** The event types some state of the machine handles: the others are not sent to it. */
  readonly #accepts: MachineEventFilter;

  constructor(machine: AnyStateMachine, handle: CallHandle, options: CallMachineOptions) {
    const { clock, record } = options;
    this.#accepts = machineEventFilter(machine);
    const input: CallInput = { call: handle };
    const actor = createActor(machine, {
      input,
      ...(record ? { snapshot: revive(record.machine, handle, clock) } : {}),
      clock,
      id: `call:${handle.channelId}`,
      logger: options.logger,
    });
    // Call actors invoked without `call` in their input act on this call.
    bindCallToSystem(actor.system, handle);
    this.actor = actor;
    actor.subscribe({ complete: options.onDone, error: options.onError });
    if (options.onStep) actor.subscribe(options.onStep);
  }

  /** Starts the actor (in its initial state, or where the record's snapshot left it). */
  start(): void {
    this.actor.start();
  }

  /** True while the machine runs (neither done, failed nor stopped). */
  get active(): boolean {
    return this.actor.getSnapshot().status === 'active';
  }

  /**
   * Gives the machine an event while it runs, if some state of it handles the event's type. A
   * machine in its final state is done with the call; XState would only warn on the console
   * about such late events.
   */
  tell(event: AnyEventObject): void {
    if (!this.#accepts(event.type)) return;
    if (this.actor.getSnapshot().status === 'active') this.actor.send(event);
  }

  /** The machine's persisted snapshot as plain data, for the call's record. */
  persisted(): unknown {
    return toPlainData(this.actor.getPersistedSnapshot());
  }

  /** Stops the actor; says where the machine was just before. */
  stop(): MachineAtEnd {
    const { status, value, output } = this.actor.getSnapshot();
    this.actor.stop();
    return { status, value, output };
  }
}

/** A record's machine snapshot with this process's live objects in place of its markers. */
function revive(data: unknown, handle: CallHandle, clock: TrackingClock): Snapshot<unknown> {
  return reviveLiveValues(data, {
    ...registeredRevivers(handle),
    call: () => handle,
    effects: (marker) => EffectRunner.restored(clock, marker as PersistedEffects),
  }) as Snapshot<unknown>;
}
