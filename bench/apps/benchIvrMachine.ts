import { type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { setup } from 'xstate';
import { DIGIT_TIMEOUT_MS, MAX_DIGITS, PROMPT_1, PROMPT_2 } from '../ivr/ivrWorkload.ts';

/**
 * The benchmark IVR hand-written as an XState machine on the runtime's action library: the same
 * call as `bench/flows/bench-ivr.yaml`, without the flow compiler. The bench runs it with
 * `--ringflow machine` to tell the runtime's cost from the DSL's.
 */
export const benchIvrMachine = setup({
  types: { input: {} as CallInput, context: {} as { readonly call: CallHandle } },
  actors: callActors,
}).createMachine({
  id: 'bench-ivr',
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  on: { 'call.gone': '.done' },
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'prompt1' },
    },
    prompt1: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: PROMPT_1, bargeIn: true }),
        onDone: 'digits',
      },
    },
    digits: {
      invoke: {
        src: 'collectDigits',
        input: ({ context }) => ({
          call: context.call,
          maxDigits: MAX_DIGITS,
          terminators: '',
          firstDigitTimeoutMs: DIGIT_TIMEOUT_MS,
          interDigitTimeoutMs: DIGIT_TIMEOUT_MS,
        }),
        onDone: 'prompt2',
      },
    },
    prompt2: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: PROMPT_2 }),
        onDone: 'leaving',
      },
    },
    leaving: {
      invoke: {
        src: 'hangup',
        input: ({ context }) => ({ call: context.call, reason: 'normal' }),
        onDone: 'done',
      },
    },
    done: { type: 'final' },
  },
});
