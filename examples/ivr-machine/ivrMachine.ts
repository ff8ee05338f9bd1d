import { type CallEvent, type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { assign, setup } from 'xstate';

/** Where the IVR sends people, so tests (and users) can point it at their own endpoints. */
export interface IvrSettings {
  /** The agent queue endpoint option 1 is bridged with. */
  readonly agentEndpoint: string;
  /** Where option 2 continues in the dialplan. */
  readonly operator: { readonly context: string; readonly extension: string; readonly label: string };
}

interface IvrContext {
  readonly call: CallHandle;
  readonly choice: string;
  readonly recording?: string;
}

/** What the IVR reports when a call ends (`output` of `app.callEnded$` / `onCallEnded`). */
export interface IvrOutput {
  /** The menu option pressed ('' for none). */
  readonly choice: string;
  /** The voicemail left, if any. */
  readonly recording?: string;
}

/** The caller's own channel left the application (hung up): the flow ends in `gone`. */
function callerLeft(context: IvrContext, event: CallEvent): boolean {
  return channelOf(event) === context.call.channelId;
}

/**
 * A hand-written IVR as an XState machine run by the runtime, one actor per call:
 * welcome (barge-in) -> menu: 1 = talk to an agent (bridge two calls), 2 = operator (user event,
 * then continue at a dialplan label), nothing = leave a voicemail (record) -> goodbye -> hang up.
 * It ends in `done` (it let the call go) or `gone` (the caller hung up first), with
 * {@link IvrOutput} as its output.
 */
export function createIvrMachine(settings: IvrSettings) {
  return setup({
    types: {
      input: {} as CallInput,
      context: {} as IvrContext,
      events: {} as CallEvent,
      output: {} as IvrOutput,
    },
    actors: callActors,
  }).createMachine({
    id: 'ivr',
    context: ({ input }) => ({ call: input.call, choice: '' }),
    output: ({ context }) => ({
      choice: context.choice,
      ...(context.recording === undefined ? {} : { recording: context.recording }),
    }),
    initial: 'answering',
    // The caller hung up while a request was on its way: end quietly.
    on: { 'call.gone': '.gone' },
    states: {
      answering: {
        invoke: { src: 'answer', onDone: 'welcome' },
      },
      welcome: {
        on: { StasisEnd: { guard: ({ context, event }) => callerLeft(context, event), target: 'gone' } },
        invoke: {
          src: 'play',
          input: { media: 'sound:hello-world', bargeIn: true },
          onDone: 'menu',
        },
      },
      menu: {
        on: { StasisEnd: { guard: ({ context, event }) => callerLeft(context, event), target: 'gone' } },
        invoke: {
          src: 'collectDigits',
          input: { maxDigits: 1, firstDigitTimeoutMs: 3000 },
          onDone: [
            {
              guard: ({ event }) => event.output.digits === '1',
              target: 'agent',
              actions: assign({ choice: '1' }),
            },
            {
              guard: ({ event }) => event.output.digits === '2',
              target: 'operator',
              actions: assign({ choice: '2' }),
            },
            { target: 'voicemail' },
          ],
        },
      },
      agent: {
        initial: 'connecting',
        states: {
          connecting: {
            invoke: {
              src: 'bridgeWith',
              input: { endpoint: settings.agentEndpoint },
              onDone: [
                { guard: ({ event }) => event.output.outcome === 'bridged', target: 'talking' },
                { target: '#ivr.voicemail' },
              ],
            },
          },
          talking: {
            on: {
              StasisEnd: [
                // The caller hung up: the flow ends.
                { guard: ({ context, event }) => callerLeft(context, event), target: '#ivr.gone' },
                // The agent hung up: the caller hears goodbye.
                { target: '#ivr.goodbye' },
              ],
            },
          },
        },
      },
      operator: {
        initial: 'announcing',
        states: {
          announcing: {
            invoke: {
              src: 'userEvent',
              input: ({ context }) => ({
                name: 'OperatorRequested',
                variables: { caller: context.call.channelId },
              }),
              onDone: 'leaving',
            },
          },
          leaving: {
            invoke: {
              src: 'continueAt',
              input: settings.operator,
              onDone: '#ivr.done',
            },
          },
        },
      },
      voicemail: {
        on: { StasisEnd: { guard: ({ context, event }) => callerLeft(context, event), target: 'gone' } },
        invoke: {
          src: 'record',
          input: { maxDurationSeconds: 3, beep: true, terminateOn: '#' },
          onDone: {
            target: 'voicemailLeft',
            actions: assign({ recording: ({ event }) => event.output.name }),
          },
        },
      },
      voicemailLeft: {
        on: { StasisEnd: { guard: ({ context, event }) => callerLeft(context, event), target: 'gone' } },
        invoke: {
          src: 'userEvent',
          input: ({ context }) => ({
            name: 'VoicemailLeft',
            variables: { recording: context.recording },
          }),
          onDone: 'goodbye',
        },
      },
      goodbye: {
        on: { StasisEnd: { guard: ({ context, event }) => callerLeft(context, event), target: 'gone' } },
        invoke: {
          src: 'play',
          input: { media: 'sound:vm-goodbye' },
          onDone: 'hangingUp',
        },
      },
      hangingUp: {
        invoke: { src: 'hangup', onDone: 'done' },
      },
      gone: { type: 'final' },
      done: { type: 'final' },
    },
  });
}

function channelOf(event: CallEvent): string | undefined {
  return (event as { channel?: { id?: string } }).channel?.id;
}
