import { type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { setup } from 'xstate';

/**
 * The call every reliability test runs: the steps of a small voicemail IVR, so a fault or a
 * hang-up can land in each kind of action. Answer, a prompt with barge-in, one digit (2 s),
 * a 2-second recording, a short pause, hang up. Any failure of an action hangs up the call
 * (`onError` -> `leaving`); the caller hanging up ends the session through StasisEnd, and
 * a request meeting a gone channel is the ordinary `call.gone` event.
 *
 * @example
 * createApplication({ servers, apps: ['ivr'], call: ivrCallMachine });
 */
export const ivrCallMachine = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  id: 'reliability-ivr',
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  on: { 'call.gone': '.done' },
  states: {
    answering: {
      invoke: {
        src: 'answer',
        input: ({ context }) => ({ call: context.call }),
        onDone: 'prompt',
        onError: 'leaving',
      },
    },
    prompt: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: 'sound:hello-world', bargeIn: true }),
        onDone: 'digit',
        onError: 'leaving',
      },
    },
    digit: {
      invoke: {
        src: 'collectDigits',
        input: ({ context }) => ({ call: context.call, firstDigitTimeoutMs: 2000 }),
        onDone: 'recording',
        onError: 'leaving',
      },
    },
    recording: {
      invoke: {
        src: 'record',
        input: ({ context }) => ({ call: context.call, maxDurationSeconds: 2, ifExists: 'overwrite' }),
        onDone: 'pause',
        onError: 'leaving',
      },
    },
    pause: { after: { 100: 'leaving' } },
    leaving: {
      invoke: {
        src: 'hangup',
        input: ({ context }) => ({ call: context.call }),
        onDone: 'done',
        onError: 'done',
      },
    },
    done: { type: 'final' },
  },
});

/** How long the call takes in virtual time when nobody interferes (prompt + digit wait + record + pause), with room to spare. */
export const IVR_CALL_MAX_MS = 15_000;
