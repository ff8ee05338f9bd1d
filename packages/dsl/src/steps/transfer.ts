import { isEventType } from '@ringflow/client/interface';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { resolveOptional, resolveValue, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData, setContext } from '../compile/effects.ts';
import type { StateSpec } from '../compile/StateSpec.ts';
import { playableFields } from '../model/media.ts';
import { type Infer, s } from '../schema/s.ts';
import { FAILED } from './restStep.ts';
import { defineStep, type StepBuild, stepParams } from './StepDefinition.ts';
import { checkTransfer } from './transferCheck.ts';
import { compileAttendedTransfer } from './transferAttended.ts';

const params = stepParams(
  {
    endpoint: s.optional(
      s.value(
        s.string({
          description:
            "Who takes the call: technology/resource (PJSIP/operator). Blind: the caller's phone is sent there (the server's redirect, a SIP REFER); attended: the flow calls it first.",
          examples: ['PJSIP/operator'],
        }),
      ),
    ),
    context: s.optional(s.value(s.string({ description: 'Blind to the dialplan: the context.' }))),
    extension: s.optional(s.value(s.string({ description: 'Blind to the dialplan: the extension.' }))),
    priority: s.optional(s.integer({ min: 1, description: 'Blind to the dialplan: the priority.' })),
    label: s.optional(
      s.value(s.string({ description: 'Blind to the dialplan: a priority label (instead of priority).' })),
    ),
    attended: s.optional(
      s.boolean({
        description:
          'Consult the target first: the caller hears music while the flow calls `endpoint`; once the target accepts the two are bridged, otherwise the caller comes back to the flow with the outcome.',
        default: false,
      }),
    ),
    announce: s.optional(
      s.object(playableFields, {
        description:
          'Attended: played to the target alone once they answer ("a caller about order 12345"), before they accept.',
      }),
    ),
    confirm: s.optional(
      s.object(
        {
          key: s.optional(
            s.string({
              description: 'The key the target presses to accept; any other key declines.',
              pattern: /^[0-9*#A-D]$/,
              patternHint: 'one key: 0-9, *, # or A-D',
              default: '1',
            }),
          ),
          timeout: s.optional(
            s.duration({
              description: 'How long the target has to press it; then declined.',
              default: '10s',
            }),
          ),
        },
        {
          description:
            'Attended: the target must press a key to accept (after the announcement); without it, answering accepts.',
        },
      ),
    ),
    timeout: s.optional(s.duration({ description: 'Attended: how long the target rings.', default: '30s' })),
    callerId: s.optional(
      s.value(s.string({ description: 'Attended: the caller id the target sees, e.g. "Support <100>".' })),
    ),
    mohClass: s.optional(s.string({ description: 'Attended: the music on hold class the caller hears.' })),
    stepOut: s.optional(
      s.boolean({
        description:
          "Attended: once the two are bridged the flow's part is over (outcome transferred when their conversation ends; the flow's next steps and its hangup handler do not run). Without it the step stays to watch and the caller comes back to the flow when the target hangs up (completed).",
        default: false,
      }),
    ),
  },
  'Transfers the caller: blind (to an endpoint or a dialplan place; the flow ends) or attended (the flow consults the target first).',
);

/** The parameters of a transfer step. */
export type TransferParams = Infer<typeof params>;

/**
 * transfer: hands the caller over to someone else.
 * @example
 *   - transfer: { endpoint: PJSIP/sales }                        # blind: the flow ends, transferred
 *   - transfer: { context: support, extension: '200' }          # blind, into the dialplan
 *   - transfer:                                                 # attended, warm
 *       endpoint: PJSIP/operator
 *       attended: true
 *       announce: { prompt: callerAboutOrder }
 *       confirm: { key: '1' }
 *       on: { declined: sorry, noAnswer: sorry, busy: sorry }
 * Outcomes: transferred (blind, or attended with `stepOut`; the flow ends), completed (attended:
 * the two talked and the target hung up; the caller is back), declined, busy, noAnswer, failed.
 */
export const transferStep = defineStep({
  name: 'transfer',
  description: 'Transfers the caller, blind or after consulting the target.',
  params,
  bare: false,
  sounds: [{ at: ['announce'] }],
  outcomes: [
    {
      name: 'transferred',
      kind: 'continued',
      description:
        'Blind: the caller was sent on. Attended with stepOut: the two were bridged and talked until one hung up (the other is hung up with them). The flow ends.',
      data: {
        to: ['string', 'the endpoint or context,extension,priority the caller was sent to'],
        channelId: ['string', 'attended: the target channel'],
        bridgeId: ['string', 'attended: the bridge of the two'],
        left: ['string', 'attended: who hung up first, caller or target'],
      },
    },
    {
      name: 'completed',
      kind: 'success',
      description: 'Attended: the target accepted, the two talked and the target hung up.',
      data: {
        channelId: ['string', 'the target channel'],
        bridgeId: ['string', 'the bridge of the two'],
      },
    },
    {
      name: 'declined',
      kind: 'success',
      description:
        'Attended: the target answered and refused (another key, no key in time, or hung up before accepting); the caller is back.',
      data: {
        channelId: ['string', 'the target channel'],
        reason: ['string', 'key, timeout or hungUp'],
        digit: ['string', 'the key pressed, when reason is key'],
      },
    },
    {
      name: 'busy',
      kind: 'success',
      description: 'Attended: the target was busy; the caller is back.',
      data: { cause: ['int', 'hangup cause'] },
    },
    {
      name: 'noAnswer',
      kind: 'success',
      description: 'Attended: the target did not answer in time; the caller is back.',
      data: { cause: ['int', 'hangup cause when the server gave one'] },
    },
    { ...FAILED, data: { ...FAILED.data, cause: ['int', 'hangup cause when the target channel ended'] } },
  ],
  possibleOutcomes: (p) =>
    p.attended === true
      ? [p.stepOut === true ? 'transferred' : 'completed', 'declined', 'busy', 'noAnswer', 'failed']
      : ['transferred', 'failed'],
  label: (p) => {
    const to =
      typeof p.endpoint === 'string'
        ? p.endpoint
        : [p.context, p.extension, p.label ?? p.priority]
            .filter((x) => typeof x === 'string' || typeof x === 'number')
            .join(',') || 'expr';
    const kind =
      p.attended === true
        ? p.stepOut === true
          ? 'attended transfer, stepping out,'
          : 'attended transfer'
        : 'transfer';
    return `${kind} ${to}`;
  },
  check: (p, path) => checkTransfer(p, path),
  compile: (p, build) => (p.attended === true ? compileAttendedTransfer(p, build) : compileBlind(p, build)),
});

/** Where a blind transfer sends the caller, resolved: an endpoint, or a dialplan place. */
function blindTarget(p: TransferParams, args: ActionArgs) {
  const scope = scopeOf(args.context, args.event);
  if (p.endpoint !== undefined)
    return { kind: 'endpoint', endpoint: resolveValue(p.endpoint, scope) } as const;
  const place = {
    context: resolveOptional(p.context, scope),
    extension: resolveOptional(p.extension, scope),
    priority: p.priority,
    label: resolveOptional(p.label, scope),
  };
  return {
    kind: 'place',
    place: Object.fromEntries(Object.entries(place).filter(([, v]) => v !== undefined)),
  } as const;
}

/**
 * Blind: the server redirects the caller's phone to the endpoint (a REFER), or the call continues
 * in the dialplan. Either way it leaves the application: its hang-up or StasisEnd, which may come
 * before the reply, is the transfer done, not the caller hanging up.
 */
function compileBlind(p: TransferParams, build: StepBuild): StateSpec {
  const left = setContext(() => ({ hungUp: true }));
  const sentTo = ({ context }: ActionArgs) => ({ to: context.step.to });
  const ownLeaving = ({ context, event }: ActionArgs) =>
    isEventType(event, 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed') &&
    event.channel.id === context.call.channelId &&
    context.step.to !== undefined;
  return {
    effect: effect(
      async (args) => {
        const channelId = args.context.call.channelId;
        const target = blindTarget(p, args);
        if (target.kind === 'endpoint') {
          await args.context.host.ari.channels.redirect({ channelId, endpoint: target.endpoint });
          return target.endpoint;
        }
        await args.context.host.ari.channels.continueInDialplan({ channelId, ...target.place });
        const { context, extension, label, priority } = target.place;
        return [context, extension, label ?? priority].filter((x) => x !== undefined).join(',');
      },
      {
        onDone: build.exit('transferred', ({ event }) => ({ to: event.output }), [left]),
        onError: build.exit('failed', failureData),
      },
    ),
    // The target is noted before the request goes (a hang-up may come before its reply).
    entry: [
      setContext(({ context, event }) => {
        try {
          const target = blindTarget(p, { context, event } as ActionArgs);
          const to =
            target.kind === 'endpoint' ? target.endpoint : Object.values(target.place).map(String).join(',');
          return { step: { ...context.step, to } };
        } catch {
          // A failing expression fails the request itself, with its message.
          return {};
        }
      }),
    ],
    on: {
      // The hang-up that follows a redirect is the transfer under way, not the caller leaving:
      // the step ends on the channel's StasisEnd (ending before it, the session would hang up
      // a channel still in the application).
      ChannelHangupRequest: { guard: ownLeaving, actions: [] },
      StasisEnd: { guard: ownLeaving, ...build.exit('transferred', sentTo, [left]) },
      ChannelDestroyed: { guard: ownLeaving, ...build.exit('transferred', sentTo, [left]) },
    },
  };
}
