import { ringGroupOutcome } from '@ringflow/runtime/engine';
import { isResourceGone } from '@ringflow/client/interface';
import { isEventType } from '@ringflow/client/interface';
import type { ActionArgs, AnyFlowEvent } from '../compile/FlowContext.ts';
import { describeFailure, resolveOptional, resolveValue, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData, fireAndForget, setContext, setStep } from '../compile/effects.ts';
import { resolveMedia } from '../compile/resolveMedia.ts';
import { playableFields } from '../model/media.ts';
import { type Infer, parseDuration, s, type Value } from '../schema/s.ts';
import type { Action, StateSpec } from '../compile/StateSpec.ts';
import { readField } from './readField.ts';
import { FAILED } from './restStep.ts';
import { defineStep, type StepBuild, stepParams } from './StepDefinition.ts';

const params = stepParams(
  {
    endpoint: s.union(
      [
        s.value(
          s.string({
            description: 'Who to call: technology/resource, e.g. PJSIP/operator or Local/100@default.',
            examples: ['PJSIP/operator'],
          }),
        ),
        s.array(s.value(s.string({ description: 'One endpoint of the ring group.' })), { minItems: 1 }),
      ],
      {
        description:
          'Who to call: one endpoint (technology/resource, e.g. PJSIP/operator), or a ring group: a list of them, rung as `strategy` says.',
      },
    ),
    strategy: s.optional(
      s.enum(['all', 'sequential'], {
        description:
          'A ring group: all (every endpoint at once; the first to answer wins, the others are hung up) or sequential (one after another, each for ringTimeout).',
        default: 'all',
      }),
    ),
    ringTimeout: s.optional(
      s.duration({
        description: 'With strategy sequential: how long each endpoint rings before the next one is tried.',
        default: '15s',
      }),
    ),
    callerId: s.optional(
      s.value(s.string({ description: 'Caller id shown to the called party, e.g. "Support <100>".' })),
    ),
    timeout: s.optional(s.duration({ description: 'How long to let it ring.', default: '30s' })),
    variables: s.optional(
      s.record(s.value(s.any()), { description: 'Channel variables of the new call (flat name -> value).' }),
    ),
    announce: s.optional(
      s.object(playableFields, {
        description:
          'Played to the called party alone once they answer, before the caller is connected (e.g. "a call from the help desk").',
      }),
    ),
    bridge: s.optional(
      s.boolean({
        description: 'Bridge the caller with the answered call and wait until the called party hangs up.',
        default: true,
      }),
    ),
    ringback: s.optional(
      s.enum(['ring', 'moh', 'none'], {
        description:
          'What the caller hears while it rings: ring (a ringback tone, what callers expect), moh (music on hold), none (silence). Stopped at answer or failure.',
        default: 'ring',
      }),
    ),
    mohClass: s.optional(s.string({ description: 'The music on hold class, with ringback: moh.' })),
  },
  'Calls another party; on answer, bridges the two calls (default) or hands the new call to the flow.',
);

/** The channel an event of the dial's own handlers is about (StasisStart, the end of a channel). */
function channelOf(event: AnyFlowEvent): { id?: string } {
  return isEventType(event, 'StasisStart', 'StasisEnd', 'ChannelHangupRequest', 'ChannelDestroyed')
    ? event.channel
    : {};
}

export function resolveVariables(
  variables: Record<string, Value<unknown>> | undefined,
  args: ActionArgs,
): Record<string, string> | undefined {
  if (!variables) return undefined;
  const scope = scopeOf(args.context, args.event);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(variables)) {
    const value = resolveValue(v, scope);
    out[k] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/** Starts what the caller hears while the called party rings (see the `ringback` parameter). */
function ringbackStart(ringback: 'ring' | 'moh' | 'none', mohClass: string | undefined) {
  if (ringback === 'none') return [];
  return [
    fireAndForget(
      ({ context }) =>
        ringback === 'ring'
          ? context.host.ari.channels.ring({ channelId: context.call.channelId })
          : context.host.ari.channels.startMoh({
              channelId: context.call.channelId,
              ...(mohClass ? { mohClass } : {}),
            }),
      `start ringback (${ringback})`,
    ),
  ];
}

/** Stops the ringback (its stop finds nothing to stop when the caller hung up meanwhile). */
async function stopRingbackOf(ringback: 'ring' | 'moh' | 'none', { context }: ActionArgs): Promise<void> {
  const channelId = context.call.channelId;
  try {
    if (ringback === 'ring') await context.host.ari.channels.ringStop({ channelId });
    else if (ringback === 'moh') await context.host.ari.channels.stopMoh({ channelId });
  } catch (error) {
    if (!isResourceGone(error)) throw error;
  }
}

/** A channel already gone needs no hang-up. */
function ignoreGone(error: unknown): undefined {
  if (isResourceGone(error)) return undefined;
  throw error;
}

/** The endpoints to call: one, a list, or an expression giving either. */
function resolveEndpoints(endpoint: unknown, args: ActionArgs): string[] {
  const scope = scopeOf(args.context, args.event);
  const list = Array.isArray(endpoint) ? endpoint : [endpoint];
  return list.flatMap((one) => {
    const value = resolveValue(one as Value<unknown>, scope);
    return Array.isArray(value) ? value.map(String) : [String(value)];
  });
}

/** The output of the effect whose result is being handled. */
function eventOutput({ event }: ActionArgs): Record<string, unknown> {
  const { output } = event;
  // An effect's result is the step's own object (see the ringing effect): no event guard covers it.
  return typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : {};
}

/** Calls that could not be placed: no longer ringing, and not the call's to route or clean up. */
const forgetFailed = setStep((args) => {
  const failed = (eventOutput(args).failed ?? []) as string[];
  for (const id of failed) args.context.host.forget?.('channel', id);
  return { ringing: ((args.context.step.ringing ?? []) as string[]).filter((id) => !failed.includes(id)) };
});

/** Hangs up the calls of the group still ringing (their attempt rang too long). */
const hangUpRinging = fireAndForget(async ({ context }) => {
  for (const id of (context.step.ringing ?? []) as string[])
    await context.host.ari.channels.hangup({ channelId: id }).catch(ignoreGone);
}, 'hang up the endpoint that rang too long');

function playbackOf(event: AnyFlowEvent): { id?: string; state?: string } {
  return isEventType(event, 'PlaybackFinished') ? event.playback : {};
}

/**
 * dial: originates a call into the application, waits for an answer, plays `announce` to the
 * called party (if given) and bridges the two.
 * @example
 *   - dial: { endpoint: PJSIP/customer, announce: { prompt: callFromHelpDesk } }
 * Outcomes: completed (bridged call ended by the called party), answered (bridge: false;
 * `event.channelId` is the new call), busy, noAnswer, failed (`event.cause` when known).
 */
export const dialStep = defineStep({
  name: 'dial',
  description: 'Calls another party and connects the caller to them.',
  params,
  bare: false,
  sounds: [{ at: ['announce'], required: 'The dial announcement' }],
  outcomes: [
    {
      name: 'completed',
      kind: 'success',
      description: 'They talked; the called party hung up.',
      data: {
        channelId: ['string', 'the called channel (after a transfer by its phone, the one in its place)'],
        endpoint: ['string', 'the endpoint that answered (of a ring group)'],
        bridgeId: ['string', 'the bridge used'],
        transferred: [
          'bool',
          "true when the called party's phone transferred the caller (blind or attended)",
        ],
      },
    },
    {
      name: 'answered',
      kind: 'success',
      description: 'With bridge: false, the call was answered (the flow decides what next).',
      data: {
        channelId: ['string', 'the called channel'],
        endpoint: ['string', 'the endpoint that answered (of a ring group)'],
      },
    },
    {
      name: 'busy',
      kind: 'success',
      description: 'The called party was busy.',
      data: { cause: ['int', 'hangup cause'] },
    },
    {
      name: 'noAnswer',
      kind: 'success',
      description: 'Nobody answered in time.',
      data: { cause: ['int', 'hangup cause when the server gave one'] },
    },
    { ...FAILED, data: { ...FAILED.data, cause: ['int', 'hangup cause when the called channel ended'] } },
  ],
  possibleOutcomes: (p) =>
    p.bridge === false
      ? ['answered', 'busy', 'noAnswer', 'failed']
      : ['completed', 'busy', 'noAnswer', 'failed'],
  label: (p) =>
    `dial ${
      typeof p.endpoint === 'string'
        ? p.endpoint
        : Array.isArray(p.endpoint)
          ? p.endpoint.map((e) => (typeof e === 'string' ? e : 'expr')).join(' + ')
          : 'expr'
    }`,
  compile: (p, build) => compileDial(p, build),
});

/** The parameters of a dial step. */
export type DialParams = Infer<typeof params>;

/** What another step that rings endpoints (a queue) changes in the dial's statechart. */
export interface DialHooks {
  /** The endpoints to ring, computed on entering (instead of the `endpoint` parameter). */
  readonly endpoints?: (args: ActionArgs) => string[];
  /** Run when an endpoint answered, before the bridge (the answered one is `context.step.endpoint`). */
  readonly answered?: readonly Action[];
}

/**
 * The statechart of a dial: ring one endpoint or a group, ringback to the caller, announce to
 * the answered party, bridge, wait for the end. Its outcomes leave through `build.exit`; another
 * step that rings endpoints (a queue rings its agents) gives its own `build` and `hooks`.
 */
export function compileDial(p: DialParams, build: StepBuild, hooks: DialHooks = {}): StateSpec {
  const timeoutMs = parseDuration(p.timeout ?? '30s') ?? 30_000;
  const sequential = p.strategy === 'sequential';
  // How long one attempt rings: the whole group at once, or each endpoint in turn.
  const attemptMs = sequential ? (parseDuration(p.ringTimeout ?? '15s') ?? 15_000) : timeoutMs;
  const ringback = p.ringback ?? 'ring';
  const isPeer = ({ context, event }: ActionArgs) => channelOf(event).id === context.step.peer;
  const replacesPeer = ({ context, event }: ActionArgs) =>
    isEventType(event, 'StasisStart') && event.replace_channel?.id === context.step.peer;
  const ringingNow = ({ context }: ActionArgs) => (context.step.ringing ?? []) as string[];
  const isRinging = (args: ActionArgs) => ringingNow(args).includes(channelOf(args.event).id ?? '');
  const lastRinging = (args: ActionArgs) => isRinging(args) && ringingNow(args).length === 1;
  const moreToTry = ({ context }: ActionArgs) =>
    sequential && Number(context.step.index) + 1 < (context.step.peers as string[]).length;
  const result = ({ context }: ActionArgs) => ({
    channelId: context.step.peer,
    endpoint: context.step.endpoint,
    ...(context.step.bridge ? { bridgeId: context.step.bridge } : {}),
    ...(context.step.transferred === true ? { transferred: true } : {}),
  });
  // The outcome of a group that ended unanswered, from the causes of its calls' ends.
  const endedWith =
    (outcome: 'busy' | 'noAnswer' | 'failed') =>
    ({ context }: ActionArgs) =>
      ringGroupOutcome(context.step.causes as unknown[]) === outcome;
  const cause = ({ context }: ActionArgs) => ({ cause: context.step.cause });
  const causeOf = (event: AnyFlowEvent) =>
    isEventType(event, 'ChannelDestroyed', 'ChannelHangupRequest') ? event.cause : undefined;
  const stopRingback = [
    fireAndForget(async (args) => {
      if (args.context.step.ringbackOn === true) await stopRingbackOf(ringback, args);
    }, `stop ringback (${ringback})`),
    setStep(() => ({ ringbackOn: false })),
  ];
  // The next endpoint of a sequential group, after this one ended or rang too long.
  const nextEndpoint = (guard: (a: ActionArgs) => boolean, actions: ReturnType<typeof setStep>[]) => ({
    guard,
    target: 'ringing',
    reenter: true,
    actions: [...actions, setStep(({ context }) => ({ index: Number(context.step.index) + 1 }))],
  });
  // The step's exit action (cleanup) runs before a transition's own actions, so what it must
  // know (the called party is gone, or is now the flow's) is set on entering a child state first;
  // that state then leaves the step.
  // Where an answered call goes: its announcement first, then the bridge (or the flow).
  const connect = p.bridge === false ? 'handedOver' : 'bridging';
  const afterAnswer = p.announce ? 'announcing' : connect;
  const announcement = p.announce;
  const peerLeft = {
    target: 'peerLeft',
    actions: [setStep(({ event }) => ({ peerUp: false, cause: causeOf(event) }))],
  };
  return {
    entry: [
      setStep((args) => {
        const endpoints = hooks.endpoints ? hooks.endpoints(args) : resolveEndpoints(p.endpoint, args);
        return {
          endpoints,
          // One call per endpoint, each id picked (and owned) before it is placed.
          peers: endpoints.map(() => args.context.host.newId('channel')),
          index: 0,
          ringing: [],
          causes: [],
          peer: undefined,
          endpoint: undefined,
          peerUp: false,
          handedOver: false,
          bridge: undefined,
          ringbackOn: ringback !== 'none',
        };
      }),
      ...ringbackStart(ringback, p.mohClass),
    ],
    // Whatever ends this step (the caller hanging up included), a call we placed does not outlive it.
    exit: [
      fireAndForget(async (args) => {
        const { context } = args;
        if (context.step.ringbackOn === true) await stopRingbackOf(ringback, args).catch(() => undefined);
        for (const id of (context.step.ringing ?? []) as string[])
          await context.host.ari.channels.hangup({ channelId: id }).catch(ignoreGone);
        if (context.step.handedOver === true) return;
        if (context.step.peerUp === true)
          await context.host.ari.channels.hangup({ channelId: String(context.step.peer) });
        if (context.step.bridge)
          await context.host.ari.bridges.destroy({ bridgeId: String(context.step.bridge) });
      }, 'dial cleanup'),
    ],
    initial: 'ringing',
    states: {
      ringing: {
        entry: [
          setStep(({ context }) => {
            const peers = context.step.peers as string[];
            return { ringing: sequential ? [peers[Number(context.step.index)]] : [...peers] };
          }),
        ],
        effect: effect(
          async (args) => {
            const { context } = args;
            const scope = scopeOf(context, args.event);
            const callerId = resolveOptional(p.callerId, scope);
            const variables = resolveVariables(p.variables, args);
            const peers = context.step.peers as string[];
            const endpoints = context.step.endpoints as string[];
            const placing = ringingNow(args);
            const placed = await Promise.allSettled(
              placing.map((channelId) =>
                context.host.ari.channels.originateWithId({
                  channelId,
                  endpoint: endpoints[peers.indexOf(channelId)]!,
                  app: context.host.application,
                  appArgs: 'dialed',
                  timeout: Math.max(1, Math.round(attemptMs / 1000)),
                  ...(callerId ? { callerId } : {}),
                  ...(variables ? { variables } : {}),
                }),
              ),
            );
            const failed = placing.filter((_, i) => placed[i]!.status === 'rejected');
            // No call at all could be placed: the step fails with the (first) reason.
            const refused = placed.find((r): r is PromiseRejectedResult => r.status === 'rejected');
            if (failed.length === placing.length && refused && !sequential) throw refused.reason;
            return { failed, ...(refused ? { failure: { ...describeFailure(refused.reason) } } : {}) };
          },
          {
            // Only calls that could not be placed need the reply: the others' events say how they go.
            doneWhen: (output) => {
              const failed = readField(output, 'failed');
              return Array.isArray(failed) && failed.length > 0;
            },
            onDone: [
              // A sequential group's endpoint that could not be called: the next one.
              {
                guard: (args: ActionArgs) =>
                  ringingNow(args).length === (eventOutput(args).failed as string[]).length &&
                  moreToTry(args),
                target: 'ringing',
                reenter: true,
                actions: [
                  forgetFailed,
                  setStep(({ context }) => ({ index: Number(context.step.index) + 1 })),
                ],
              },
              {
                guard: (args: ActionArgs) =>
                  ringingNow(args).length === (eventOutput(args).failed as string[]).length,
                target: 'notPlaced',
                actions: [
                  forgetFailed,
                  setStep((args) => ({ ringing: [], failure: eventOutput(args).failure })),
                ],
              },
              { actions: [forgetFailed] },
            ],
            // A second originate would place a second call: the dialled channel's events (or the
            // restored session's check of it) say what became of the first.
            resume: 'await',
            // No call was placed: nothing to hang up.
            onError: {
              target: 'notPlaced',
              actions: [
                ({ context }: ActionArgs) => {
                  for (const id of (context.step.ringing ?? []) as string[])
                    context.host.forget?.('channel', id);
                },
                setStep((args) => ({ ringing: [], failure: failureData(args) })),
              ],
            },
          },
        ),
        on: {
          StasisStart: {
            guard: isRinging,
            target: afterAnswer,
            actions: [
              // The others of the group are hung up: the first to answer wins.
              fireAndForget(async (args) => {
                const winner = channelOf(args.event).id;
                for (const id of ringingNow(args))
                  if (id !== winner)
                    await args.context.host.ari.channels.hangup({ channelId: id }).catch(ignoreGone);
              }, 'hang up the rest of the ring group'),
              setStep(({ context, event }) => {
                const id = channelOf(event).id;
                const peers = context.step.peers as string[];
                return {
                  peer: id,
                  endpoint: (context.step.endpoints as string[])[peers.indexOf(id ?? '')],
                  peerUp: true,
                  ringing: [],
                };
              }),
              ...stopRingback,
              ...(hooks.answered ?? []),
            ],
          },
          ChannelDestroyed: [
            nextEndpoint(
              (a) => lastRinging(a) && moreToTry(a),
              [
                setStep(({ context, event }) => ({
                  ringing: [],
                  causes: [...(context.step.causes as unknown[]), causeOf(event)],
                })),
              ],
            ),
            {
              guard: lastRinging,
              target: 'unanswered',
              actions: [
                setStep(({ context, event }) => ({
                  ringing: [],
                  cause: causeOf(event),
                  causes: [...(context.step.causes as unknown[]), causeOf(event)],
                })),
              ],
            },
            {
              guard: isRinging,
              actions: [
                setStep(({ context, event }) => ({
                  ringing: ringingNow({ context, event } as ActionArgs).filter(
                    (id) => id !== channelOf(event).id,
                  ),
                  causes: [...(context.step.causes as unknown[]), causeOf(event)],
                })),
              ],
            },
          ],
        },
        // The server's own timeout normally ends the call first; this is the safety net.
        after: {
          [attemptMs + 5000]: [
            nextEndpoint(moreToTry, [hangUpRinging, setStep(() => ({ ringing: [] }))]),
            { ...build.exit('noAnswer', () => ({ cause: 'timeout' })) },
          ],
        },
      },
      // The called party alone hears the announcement; the caller still hears nothing new.
      ...(announcement
        ? {
            announcing: {
              entry: [setStep(({ context }) => ({ announcement: context.host.newId('playback') }))],
              effect: effect(
                async (args) => {
                  const { media, lang } = resolveMedia(announcement, args, build.flow);
                  if (media.length === 0) return 'nothing-to-play';
                  await args.context.host.ari.channels.play({
                    channelId: String(args.context.step.peer),
                    playbackId: String(args.context.step.announcement),
                    media,
                    lang,
                  });
                  return 'playing';
                },
                {
                  // Only "nothing to play" needs the reply: a playing announcement ends by its events.
                  onDone: { target: connect },
                  doneWhen: (output) => output === 'nothing-to-play',
                  onError: build.exit('failed', failureData),
                  resume: 'await',
                },
              ),
              on: {
                PlaybackFinished: [
                  {
                    guard: ({ context, event }: ActionArgs) =>
                      playbackOf(event).id === context.step.announcement &&
                      playbackOf(event).state === 'failed',
                    ...build.exit('failed', () => ({ message: 'the announcement could not be played' })),
                  },
                  {
                    guard: ({ context, event }: ActionArgs) =>
                      playbackOf(event).id === context.step.announcement,
                    target: connect,
                  },
                ],
                // A hang-up stops the announcement, and its PlaybackFinished comes before the
                // channel's end: the hang-up request is the first sign that it must not be bridged.
                ChannelHangupRequest: { guard: isPeer, ...peerLeft },
                ChannelDestroyed: { guard: isPeer, ...peerLeft },
                StasisEnd: { guard: isPeer, ...peerLeft },
              },
            },
          }
        : {}),
      bridging: {
        entry: [setStep(({ context }) => ({ bridge: context.host.newId('bridge') }))],
        effect: effect(
          async ({ context }) => {
            const bridgeId = String(context.step.bridge);
            await context.host.ari.bridges.createWithId({ bridgeId, type: 'mixing' });
            await context.host.ari.bridges.addChannel({
              bridgeId,
              channel: [context.call.channelId, String(context.step.peer)],
            });
          },
          {
            onDone: {
              target: 'connected',
              actions: [setContext(({ context }) => ({ bridgeId: String(context.step.bridge) }))],
            },
            onError: build.exit('failed', failureData),
          },
        ),
        on: { ChannelDestroyed: { guard: isPeer, ...peerLeft } },
      },
      connected: {
        on: {
          // The called party's phone transferred the caller (blind or attended): the channel in
          // its place (StasisStart with replace_channel) is the called party from now on; the
          // replaced one's end is the transfer going through, not the called party leaving.
          StasisStart: {
            guard: replacesPeer,
            actions: [
              setStep(({ event }) => ({
                peer: isEventType(event, 'StasisStart') ? event.channel.id : undefined,
                transferred: true,
              })),
            ],
          },
          ChannelDestroyed: { guard: isPeer, ...peerLeft },
          // The called party left the application (hung up, or was transferred): not ours to hang up.
          StasisEnd: { guard: isPeer, ...peerLeft },
        },
        exit: [setContext(() => ({ bridgeId: undefined }))],
      },
      notPlaced: {
        entry: stopRingback,
        always: build.exit('failed', ({ context }) => context.step.failure as Record<string, unknown>),
      },
      unanswered: {
        entry: stopRingback,
        always: [
          { guard: endedWith('busy'), ...build.exit('busy', cause) },
          { guard: endedWith('noAnswer'), ...build.exit('noAnswer', cause) },
          build.exit('failed', ({ context }) => ({
            message: 'the called party could not be reached',
            cause: context.step.cause,
          })),
        ],
      },
      // With bridge: false the answered call is the flow's now: leaving the step keeps it up.
      handedOver: {
        entry: [setStep(() => ({ handedOver: true }))],
        always: build.exit('answered', result),
      },
      peerLeft: { always: build.exit('completed', result) },
    },
  };
}
