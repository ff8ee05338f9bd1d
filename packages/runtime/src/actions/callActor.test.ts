import { describe, expect, it } from 'vitest';
import { createActor, setup, waitFor } from 'xstate';
import { callActors } from './index.ts';

describe('call actors invoked without `call` in their input', () => {
  it('outside a machine the runtime runs for a call, fail with what to do instead of a TypeError', async () => {
    const machine = setup({ actors: callActors }).createMachine({
      initial: 'answering',
      context: { error: '' },
      states: {
        answering: {
          invoke: {
            src: 'answer',
            onError: {
              target: 'failed',
              actions: ({ context, event }) => {
                (context as { error: string }).error = (event.error as Error).message;
              },
            },
          },
        },
        failed: { type: 'final' },
      },
    });
    const actor = createActor(machine).start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().context.error).toMatch(
      /without `call` in its input.*give `call` in the input/,
    );
  });
});
