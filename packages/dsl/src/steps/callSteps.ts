import { type ChannelsHangupParams, findOperation, isEventType } from '@ringflow/client/interface';
import {
  type ActionArgs,
  describeFailure,
  resolveOptional,
  resolveValue,
  scopeOf,
} from '../compile/FlowContext.ts';
import { effect, failureData, setContext } from '../compile/effects.ts';
import { parseDuration, s } from '../schema/s.ts';
import { resolveVariables } from './dial.ts';
import { readField } from './readField.ts';
import { FAILED, restStep } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

/** Hangup reasons the interface accepts, read from the client's description (one list for both). */
const HANGUP_REASONS = (findOperation('channels', 'hangup')?.params.find((p) => p.name === 'reason')?.enum ??
  []) as readonly NonNullable<ChannelsHangupParams['reason']>[];

const location = {
  context: s.optional(s.value(s.string({ description: 'Dialplan context.' }))),
  extension: s.optional(s.value(s.string({ description: 'Dialplan extension.' }))),
  priority: s.optional(s.integer({ min: 1, description: 'Dialplan priority.' })),
  label: s.optional(s.value(s.string({ description: 'Dialplan priority label (instead of priority).' }))),
};

/**
 * originate: places a new call without waiting for it, into the dialplan (context/extension or
 * label) or into an application. Outcomes: done (`event.channelId`), failed.
 */
export const originateStep = defineStep({
  name: 'originate',
  description: 'Places a new call into the dialplan or an application, without waiting for it.',
  params: stepParams(
    {
      endpoint: s.value(s.string({ description: 'Who to call, e.g. PJSIP/200.' })),
      ...location,
      app: s.optional(
        s.string({ description: 'Send the new call to this application instead of the dialplan.' }),
      ),
      callerId: s.optional(s.value(s.string())),
      timeout: s.optional(s.duration({ default: '30s', description: 'How long to let it ring.' })),
      variables: s.optional(
        s.record(s.value(s.any()), { description: 'Channel variables of the new call.' }),
      ),
    },
    'Places a new call.',
  ),
  bare: false,
  outcomes: [
    {
      name: 'done',
      kind: 'success',
      description: 'The call was placed.',
      data: { channelId: ['string', 'id of the new call'] },
    },
    FAILED,
  ],
  label: (p) => `originate ${typeof p.endpoint === 'string' ? p.endpoint : 'expr'}`,
  compile: (p, build) => ({
    effect: effect(
      async (args) => {
        const { context } = args;
        const scope = scopeOf(context, args.event);
        // Not owned: the new call is not this call's to follow or to hang up when it ends.
        const channelId = context.host.newId('channel', { owned: false });
        const variables = resolveVariables(p.variables, args);
        const optional = {
          context: resolveOptional(p.context, scope),
          extension: resolveOptional(p.extension, scope),
          priority: p.priority,
          label: resolveOptional(p.label, scope),
          app: p.app,
          callerId: resolveOptional(p.callerId, scope),
          variables,
        };
        await context.host.ari.channels.originateWithId({
          channelId,
          endpoint: resolveValue(p.endpoint, scope),
          timeout: Math.max(1, Math.round((parseDuration(p.timeout ?? '30s') ?? 30_000) / 1000)),
          ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
        });
        return channelId;
      },
      {
        onDone: build.exit('done', ({ event }) => ({ channelId: event.output })),
        onError: build.exit('failed', failureData),
      },
    ),
  }),
});

/**
 * continue: sends the call on in the dialplan (context/extension/priority or label). The call
 * leaves the application, so the flow ends with status "continued". Outcomes: continued, failed.
 */
export const continueStep = defineStep({
  name: 'continue',
  description: 'Sends the call on in the dialplan; the flow ends for this call.',
  params: stepParams(location, 'Continue in the dialplan (no location: the next priority).'),
  bare: true,
  endsCall: true,
  outcomes: [
    { name: 'continued', kind: 'continued', description: 'The call left the application for the dialplan.' },
    FAILED,
  ],
  label: (p) =>
    `continue ${[p.context, p.extension, p.label ?? p.priority].filter((x) => typeof x === 'string' || typeof x === 'number').join(',')}`,
  compile: (p, build) => ({
    effect: effect(
      (args) => {
        const scope = scopeOf(args.context, args.event);
        const optional = {
          context: resolveOptional(p.context, scope),
          extension: resolveOptional(p.extension, scope),
          priority: p.priority,
          label: resolveOptional(p.label, scope),
        };
        return args.context.host.ari.channels.continueInDialplan({
          channelId: args.context.call.channelId,
          ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
        });
      },
      {
        // The call leaves the application: its StasisEnd is expected, not a hangup.
        onDone: build.exit('continued', undefined, [setContext(() => ({ hungUp: true }))]),
        onError: build.exit('failed', failureData),
      },
    ),
    // The server may send the channel's StasisEnd before the reply to continue: the call left
    // for the dialplan, which is this step's success, not the caller hanging up.
    on: {
      StasisEnd: {
        guard: ({ context, event }: ActionArgs) =>
          isEventType(event, 'StasisEnd') && event.channel.id === context.call.channelId,
        ...build.exit('continued', undefined, [setContext(() => ({ hungUp: true }))]),
      },
    },
  }),
});

/** hangup: hangs the call up with a reason; the flow ends with status "completed". */
export const hangupStep = defineStep({
  name: 'hangup',
  description: 'Hangs the call up; the flow ends.',
  params: stepParams(
    {
      reason: s.optional(
        s.enum(HANGUP_REASONS, {
          default: 'normal',
          description: 'Reason given to the server.',
        }),
      ),
    },
    'Hangs the call up.',
  ),
  bare: true,
  endsCall: true,
  outcomes: [{ name: 'done', kind: 'ended', description: 'The call was hung up; the flow ends.' }],
  label: (p) => `hangup${p.reason ? ` (${p.reason})` : ''}`,
  compile: (p, build) => ({
    // Mark the call as ended first, so the hangup events it causes are not taken for the caller leaving.
    entry: [setContext(() => ({ hungUp: true }))],
    effect: effect(
      ({ context }) =>
        context.host.ari.channels.hangup({ channelId: context.call.channelId, reason: p.reason ?? 'normal' }),
      {
        onDone: build.exit('done'),
        // A call that is already gone is hung up all the same.
        onError: build.exit('done'),
      },
    ),
  }),
});

/**
 * userEvent: raises a user event (ChannelUserevent) carrying variables, sourced from this call
 * while it is up; after the caller hung up (a hangup handler telling others), without a source:
 * the channel no longer exists, and a server refuses an event sourced from it.
 */
export const userEventStep = restStep({
  name: 'userEvent',
  description: 'Raises a user event with variables (other applications receive ChannelUserevent).',
  params: stepParams(
    {
      name: s.value(s.string({ description: 'Event name.' })),
      variables: s.optional(
        s.record(s.value(s.any()), { description: 'Custom pairs carried by the event.' }),
      ),
      application: s.optional(s.string({ description: 'Application that receives it (default: this one).' })),
    },
    'Raises a user event.',
  ),
  bare: false,
  label: (p) => `userEvent ${typeof p.name === 'string' ? p.name : 'expr'}`,
  run: (p, args, scope) =>
    args.context.host.ari.events.userEvent({
      eventName: resolveValue(p.name, scope),
      application: p.application ?? args.context.host.application,
      ...(args.context.hungUp ? {} : { source: [`channel:${args.context.call.channelId}`] }),
      variables: resolveVariables(p.variables, args) ?? {},
    }),
});

/** sendMessage: sends an out-of-call text message. */
export const sendMessageStep = restStep({
  name: 'sendMessage',
  description: 'Sends a text message (SMS/SIP MESSAGE) to an endpoint.',
  params: stepParams(
    {
      to: s.value(s.string({ description: 'Destination, e.g. pjsip:alice.' })),
      from: s.value(s.string({ description: 'Sender.' })),
      body: s.value(s.string({ description: 'Message text.' })),
      variables: s.optional(s.record(s.value(s.any()), { description: 'Technology-specific variables.' })),
    },
    'Sends a text message.',
  ),
  bare: false,
  label: () => 'sendMessage',
  run: (p, args, scope) => {
    const variables = resolveVariables(p.variables, args);
    return args.context.host.ari.endpoints.sendMessage({
      to: resolveValue(p.to, scope),
      from: resolveValue(p.from, scope),
      body: resolveValue(p.body, scope),
      ...(variables ? { variables } : {}),
    });
  },
});

/** snoop: starts a snoop channel to spy on and/or whisper to this call. */
export const snoopStep = defineStep({
  name: 'snoop',
  description: 'Creates a snoop channel (spy and/or whisper) on this call, delivered to an application.',
  params: stepParams(
    {
      spy: s.optional(
        s.enum(['none', 'both', 'out', 'in'], {
          default: 'both',
          description: 'Audio direction to listen to.',
        }),
      ),
      whisper: s.optional(
        s.enum(['none', 'both', 'out', 'in'], {
          default: 'none',
          description: 'Audio direction to speak into.',
        }),
      ),
      app: s.optional(
        s.string({ description: 'Application receiving the snoop channel (default: this one).' }),
      ),
      appArgs: s.optional(s.string()),
    },
    'Spy or whisper.',
  ),
  bare: true,
  outcomes: [
    {
      name: 'started',
      kind: 'success',
      description: 'The snoop channel exists.',
      data: { channelId: ['string', 'the snoop channel'] },
    },
    FAILED,
  ],
  label: (p) => `snoop ${p.spy ?? 'both'}/${p.whisper ?? 'none'}`,
  compile: (p, build) => ({
    effect: effect(
      async ({ context }) => {
        const snoopId = context.host.newId('snoop');
        await context.host.ari.channels.snoopChannelWithId({
          channelId: context.call.channelId,
          snoopId,
          spy: p.spy ?? 'both',
          whisper: p.whisper ?? 'none',
          app: p.app ?? context.host.application,
          ...(p.appArgs ? { appArgs: p.appArgs } : {}),
        });
        return snoopId;
      },
      {
        onDone: build.exit('started', ({ event }) => ({ channelId: event.output })),
        onError: build.exit('failed', failureData),
      },
    ),
  }),
});

/** setChannelVar: sets channel variables (or dialplan functions) on the call. */
export const setChannelVarStep = restStep({
  name: 'setChannelVar',
  description: 'Sets channel variables or dialplan functions on the call.',
  params: stepParams(
    {
      variables: s.record(s.value(s.union([s.string(), s.number(), s.boolean()])), {
        description: 'Name -> value; functions too, e.g. CALLERID(name).',
      }),
    },
    'Sets channel variables.',
  ),
  bare: false,
  label: (p) => `setChannelVar ${Object.keys(p.variables).join(', ')}`,
  run: async (p, args, scope) => {
    for (const [variable, value] of Object.entries(p.variables))
      await args.context.host.ari.channels.setChannelVar({
        channelId: args.context.call.channelId,
        variable,
        value: String(resolveValue(value, scope)),
      });
  },
});

/** getChannelVar: reads a channel variable. Outcomes: found (`event.value`), missing, failed. */
export const getChannelVarStep = defineStep({
  name: 'getChannelVar',
  description: 'Reads a channel variable (also kept in call.variables).',
  params: stepParams(
    { name: s.string({ description: 'Variable or function name.' }) },
    'Reads a channel variable.',
  ),
  bare: false,
  outcomes: [
    {
      name: 'found',
      kind: 'success',
      description: 'The variable exists.',
      data: { name: ['string', 'its name'], value: ['string', 'its value'] },
    },
    {
      name: 'missing',
      kind: 'success',
      description: 'The variable is not set (the server answered 404).',
      data: { name: ['string', 'its name'] },
    },
    FAILED,
  ],
  label: (p) => `getChannelVar ${p.name}`,
  compile: (p, build) => ({
    effect: effect(
      ({ context }) =>
        context.host.ari.channels.getChannelVar({ channelId: context.call.channelId, variable: p.name }),
      {
        onDone: {
          ...build.exit(
            'found',
            ({ event }) => ({ name: p.name, value: readField(event.output, 'value') ?? '' }),
            [
              setContext(({ context, event }) => ({
                call: {
                  ...context.call,
                  variables: {
                    ...context.call.variables,
                    [p.name]: String(readField(event.output, 'value') ?? ''),
                  },
                },
              })),
            ],
          ),
        },
        onError: [
          // A missing variable is a 404 while the call is still up: an answer, not a failure.
          {
            guard: ({ event }: ActionArgs) => describeFailure(event.error).status === 404,
            ...build.exit('missing', () => ({ name: p.name })),
          },
          build.exit('failed', failureData),
        ],
      },
    ),
  }),
});

/** deviceState: sets a controlled device state (name must start with "Stasis:"). */
export const deviceStateStep = restStep({
  name: 'deviceState',
  description: 'Sets the state of a device controlled by the application.',
  params: stepParams(
    {
      device: s.value(
        s.string({
          pattern: /^Stasis:.+/,
          patternHint: 'a device name starting with "Stasis:", e.g. Stasis:queue-busy',
          description: 'Device name (Stasis:...).',
        }),
      ),
      state: s.enum(
        ['NOT_INUSE', 'INUSE', 'BUSY', 'INVALID', 'UNAVAILABLE', 'RINGING', 'RINGINUSE', 'ONHOLD'],
        { description: 'New state.' },
      ),
    },
    'Sets a device state.',
  ),
  bare: false,
  label: (p) => `deviceState ${p.state}`,
  run: (p, args, scope) =>
    args.context.host.ari.deviceStates.update({
      deviceName: resolveValue(p.device, scope),
      deviceState: p.state,
    }),
});

/** mailbox: sets the message counts of an external mailbox (message-waiting lamps). */
export const mailboxStep = restStep({
  name: 'mailbox',
  description: 'Sets the old/new message counts of a mailbox (message-waiting indication).',
  params: stepParams(
    {
      name: s.value(s.string({ description: 'Mailbox name, e.g. 100@default.' })),
      oldMessages: s.value(s.integer({ min: 0, description: 'Count of old (read) messages.' })),
      newMessages: s.value(s.integer({ min: 0, description: 'Count of new messages.' })),
    },
    'Updates a mailbox.',
  ),
  bare: false,
  label: () => 'mailbox',
  run: (p, args, scope) =>
    args.context.host.ari.mailboxes.update({
      mailboxName: resolveValue(p.name, scope),
      oldMessages: Number(resolveValue(p.oldMessages, scope)),
      newMessages: Number(resolveValue(p.newMessages, scope)),
    }),
});
