import { isResourceGone } from '@ringflow/client/interface';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { resolveOptional, resolveValue, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData, fireAndForget, setContext, setStep } from '../compile/effects.ts';
import { resolveMedia } from '../compile/resolveMedia.ts';
import { playableFields } from '../model/media.ts';
import { parseDuration, s, type Value } from '../schema/s.ts';
import { FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

const params = stepParams(
  {
    endpoint: s.value(
      s.string({
        description: 'Who to call: technology/resource, e.g. PJSIP/operator or Local/100@default.',
        examples: ['PJSIP/operator'],
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

/** Hangup causes (Q.850) that say why a dialled call ended before it was answered. */
export function dialOutcomeForCause(cause: unknown): 'busy' | 'noAnswer' | 'failed' {
  if (cause === 17) return 'busy';
  if (cause === 18 || cause === 19 || cause === 21 || cause === 16) return 'noAnswer';
  return 'failed';
}

function channelOf(event: unknown): { id?: string } {
  return ((event as { channel?: { id?: string }; peer?: { id?: string } }).channel ??
    (event as { peer?: { id?: string } }).peer ??
    {}) as { id?: string };
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

/** Stops the ringback when the ringing ends (answer, refusal, time-out, or the caller hanging up). */
function ringbackStop(ringback: 'ring' | 'moh' | 'none') {
  if (ringback === 'none') return [];
  return [
    fireAndForget(async ({ context }) => {
      const channelId = context.call.channelId;
      try {
        if (ringback === 'ring') await context.host.ari.channels.ringStop({ channelId });
        else await context.host.ari.channels.stopMoh({ channelId });
      } catch (error) {
        // The caller hung up while it rang: nothing to stop.
        if (!isResourceGone(error)) throw error;
      }
    }, `stop ringback (${ringback})`),
  ];
}

function playbackOf(event: unknown): { id?: string; state?: string } {
  return ((event as { playback?: { id?: string; state?: string } }).playback ?? {}) as {
    id?: string;
    state?: string;
  };
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
      data: { channelId: ['string', 'the called channel'], bridgeId: ['string', 'the bridge used'] },
    },
    {
      name: 'answered',
      kind: 'success',
      description: 'With bridge: false, the call was answered (the flow decides what next).',
      data: { channelId: ['string', 'the called channel'] },
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
  label: (p) => `dial ${typeof p.endpoint === 'string' ? p.endpoint : 'expr'}`,
  compile: (p, build) => {
    const timeoutMs = parseDuration(p.timeout ?? '30s') ?? 30_000;
    const isPeer = ({ context, event }: ActionArgs) => channelOf(event).id === context.step.peer;
    const result = ({ context }: ActionArgs) => ({
      channelId: context.step.peer,
      ...(context.step.bridge ? { bridgeId: context.step.bridge } : {}),
    });
    // The outcome of a call that ended unanswered, from the cause kept when its channel went.
    const endedWith =
      (outcome: 'busy' | 'noAnswer' | 'failed') =>
      ({ context }: ActionArgs) =>
        dialOutcomeForCause(context.step.cause) === outcome;
    const cause = ({ context }: ActionArgs) => ({ cause: context.step.cause });
    // The step's exit action (cleanup) runs before a transition's own actions, so what it must
    // know (the called party is gone, or is now the flow's) is set on entering a child state first;
    // that state then leaves the step.
    // Where an answered call goes: its announcement first, then the bridge (or the flow).
    const connect = p.bridge === false ? 'handedOver' : 'bridging';
    const afterAnswer = p.announce ? 'announcing' : connect;
    const announcement = p.announce;
    const peerLeft = {
      target: 'peerLeft',
      actions: [setStep(({ event }) => ({ peerUp: false, cause: (event as { cause?: unknown }).cause }))],
    };
    return {
      entry: [
        setStep(({ context }) => ({
          peer: context.host.newId('channel'),
          peerUp: false,
          handedOver: false,
          bridge: undefined,
        })),
      ],
      // Whatever ends this step (the caller hanging up included), a call we placed does not outlive it.
      exit: [
        fireAndForget(async ({ context }) => {
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
          entry: [setStep(() => ({ peerUp: true })), ...ringbackStart(p.ringback ?? 'ring', p.mohClass)],
          exit: ringbackStop(p.ringback ?? 'ring'),
          effect: effect(
            (args) => {
              const { context } = args;
              const scope = scopeOf(context, args.event);
              const callerId = resolveOptional(p.callerId, scope);
              const variables = resolveVariables(p.variables, args);
              return context.host.ari.channels.originateWithId({
                channelId: String(context.step.peer),
                endpoint: resolveValue(p.endpoint, scope),
                app: context.host.application,
                appArgs: 'dialed',
                timeout: Math.max(1, Math.round(timeoutMs / 1000)),
                ...(callerId ? { callerId } : {}),
                ...(variables ? { variables } : {}),
              });
            },
            {
              // A second originate would place a second call: the dialled channel's events (or the
              // restored session's check of it) say what became of the first.
              resume: 'await',
              // No call was placed: nothing to hang up.
              onError: {
                target: 'notPlaced',
                actions: [setStep((args) => ({ peerUp: false, failure: failureData(args) }))],
              },
            },
          ),
          on: {
            StasisStart: { guard: isPeer, target: afterAnswer },
            ChannelDestroyed: { guard: isPeer, ...peerLeft, target: 'unanswered' },
          },
          // The server's own timeout normally ends the call first; this is the safety net.
          after: { [timeoutMs + 5000]: { ...build.exit('noAnswer', () => ({ cause: 'timeout' })) } },
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
            ChannelDestroyed: { guard: isPeer, ...peerLeft },
            // The called party left the application (hung up, or was transferred): not ours to hang up.
            StasisEnd: { guard: isPeer, ...peerLeft },
          },
          exit: [setContext(() => ({ bridgeId: undefined }))],
        },
        notPlaced: {
          entry: [({ context }: ActionArgs) => context.host.forget?.('channel', String(context.step.peer))],
          always: build.exit('failed', ({ context }) => context.step.failure as Record<string, unknown>),
        },
        unanswered: {
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
  },
});
