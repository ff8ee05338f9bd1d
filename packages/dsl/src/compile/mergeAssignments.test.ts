import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { setContext, setStep, setVars } from './effects.ts';
import type { ActionArgs, FlowContext } from './FlowContext.ts';
import { mergeActions, mergeAssignments } from './mergeAssignments.ts';
import type { Action, StateSpec } from './StateSpec.ts';

/** A machine whose `go` event runs `actions`, then stops; its context at the end. */
function contextAfter(states: Record<string, StateSpec>): Partial<FlowContext> {
  const machine = createMachine({
    context: { vars: { n: 1 }, step: {}, status: 'running' },
    initial: 'idle',
    states,
  } as never);
  const actor = createActor(machine).start();
  actor.send({ type: 'go', digit: '7' });
  return actor.getSnapshot().context as Partial<FlowContext>;
}

const chain = (): Action[] => [
  setVars(({ context }) => ({ n: (context.vars.n as number) + 1 })),
  // Reads what the assignment before it set: merged, it must still see it.
  setStep(({ context, event }) => ({ seen: context.vars.n, digit: (event as { digit?: string }).digit })),
  setContext(({ context }) => ({ status: context.step.seen === 2 ? 'completed' : 'failed' })),
];

const withTransition = (
  actions: readonly Action[],
  entry: readonly Action[] = [],
): Record<string, StateSpec> => ({
  idle: { on: { go: { target: 'done', actions } } },
  done: { entry },
});

describe('mergeAssignments', () => {
  it('makes a run of assignments one, with the context each of them made in turn', () => {
    expect(mergeActions(chain())).toHaveLength(1);
    const plain = contextAfter(withTransition(chain(), chain()));
    const merged = contextAfter(mergeAssignments(withTransition(chain(), chain())));
    expect(merged).toEqual(plain);
    expect(merged).toMatchObject({ vars: { n: 3 }, step: { seen: 3, digit: '7' }, status: 'failed' });
  });

  it('keeps assignments apart when another action sits between them, which sees the first one', () => {
    const seen: unknown[] = [];
    const look = ({ context }: ActionArgs) => {
      seen.push(context.vars.n);
    };
    const [first, second, third] = chain();
    const actions = [first!, look as Action, second!, third!];
    const merged = mergeActions(actions);
    expect(merged).toHaveLength(3);
    expect(merged[0]).toBe(first);
    expect(merged[1]).toBe(look);
    expect(contextAfter(mergeAssignments(withTransition(actions)))).toMatchObject({ status: 'completed' });
    expect(seen).toEqual([2]);
  });

  it('returns a list without runs as it is', () => {
    const actions = [setContext(() => ({ status: 'completed' }))];
    expect(mergeActions(actions)).toBe(actions);
  });
});
