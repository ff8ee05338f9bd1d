import { createActor, setup } from 'xstate';
import { ConsoleClock } from './ConsoleClock.ts';
import type { StepTaken } from './consoleRequests.ts';
import type { ClockState } from './feedMessages.ts';

interface HeldEvent {
  readonly event: Record<string, unknown>;
  readonly deliver: (event: Record<string, unknown>) => void;
}

/**
 * Running: events go to the flows as they come and time follows the wall clock. Paused: time
 * stands still and the server's events wait (see {@link SteppedTime.step}). Resuming gives the
 * waiting events in order, then lets time run.
 */
const steppingMachine = setup({
  types: {
    events: {} as { type: 'pause' } | { type: 'resume' } | { type: 'event'; held: HeldEvent },
  },
  actions: {
    pauseClock: () => {},
    resumeClock: () => {},
    deliver: (_, _held: HeldEvent) => {},
    hold: (_, _held: HeldEvent) => {},
  },
}).createMachine({
  id: 'steppedTime',
  initial: 'running',
  states: {
    running: {
      entry: 'resumeClock',
      on: {
        pause: 'paused',
        event: { actions: { type: 'deliver', params: ({ event }) => event.held } },
      },
    },
    paused: {
      entry: 'pauseClock',
      on: {
        resume: 'running',
        event: { actions: { type: 'hold', params: ({ event }) => event.held } },
      },
    },
  },
});

/** How an event is named in a step's report (`ChannelDtmfReceived 1`). */
function nameOf(event: Record<string, unknown>): string {
  return `${String(event.type)}${typeof event.digit === 'string' ? ` ${event.digit}` : ''}`;
}

/**
 * The simulated time of `ringflow dev`, which the page pauses, steps and resumes: its
 * {@link ConsoleClock} (the simulator's and the flows'), and the gate of the server's events to the
 * flows ({@link gate}). `changed` is told whenever the state the page shows changes.
 *
 * @example
 * const time = new SteppedTime(() => feed.send({ type: 'clock', ...time.state() }));
 * const sim = createSimulator({ clock: time.clock });
 * time.pause();
 * time.step(); // { kind: 'event', event: 'ChannelDtmfReceived 1' }
 */
export class SteppedTime {
  readonly clock = new ConsoleClock();
  private readonly held: HeldEvent[] = [];
  private readonly give = (held: HeldEvent) => held.deliver(held.event);
  private readonly actor;

  constructor(private readonly changed: () => void = () => {}) {
    const give = this.give;
    this.actor = createActor(
      steppingMachine.provide({
        actions: {
          pauseClock: () => this.clock.pause(),
          resumeClock: () => {
            for (let held = this.held.shift(); held; held = this.held.shift()) give(held);
            this.clock.resume();
          },
          deliver: (_, held) => give(held),
          hold: (_, held) => {
            this.held.push(held);
            this.changed();
          },
        },
      }),
    );
    this.actor.start();
  }

  /** The server's event stream to the flows, through the gate: held while paused. */
  gate(deliver: (event: Record<string, unknown>) => void): (event: Record<string, unknown>) => void {
    return (event) => this.actor.send({ type: 'event', held: { event, deliver } });
  }

  pause(): void {
    this.actor.send({ type: 'pause' });
    this.changed();
  }

  resume(): void {
    this.actor.send({ type: 'resume' });
    this.changed();
  }

  /**
   * One step (paused only; running, nothing happens): gives the flows the oldest event waiting,
   * or, when none waits, moves time to the next timer, which may raise events (the first of them
   * is given in the same step). Taken outside the machine's actions: the
   * events a timer raises come back through the gate, and must be held before the step goes on.
   */
  step(): StepTaken {
    if (!this.actor.getSnapshot().matches('paused')) return { kind: 'nothing' };
    const taken = this.takeStep();
    this.changed();
    return taken;
  }

  state(): ClockState {
    return {
      paused: this.actor.getSnapshot().matches('paused'),
      now: this.clock.now(),
      waiting: this.held.length,
      nextDue: this.clock.nextDue() ?? null,
    };
  }

  close(): void {
    this.actor.stop();
    this.clock.close();
  }

  private takeStep(): StepTaken {
    const give = this.give;
    let held = this.held.shift();
    if (held) {
      give(held);
      return { kind: 'event', event: nameOf(held.event) };
    }
    if (!this.clock.advanceToNext()) return { kind: 'nothing' };
    // The timer may have raised events (a playback's end, a key's tone): the first goes now.
    held = this.held.shift();
    if (!held) return { kind: 'timer', at: this.clock.now() };
    give(held);
    return { kind: 'event', event: nameOf(held.event) };
  }
}
