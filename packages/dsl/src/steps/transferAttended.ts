import { isResourceGone } from '@ringflow/client/interface';
import { isEventType } from '@ringflow/client/interface';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { effect, failureData, fireAndForget, setContext, setStep } from '../compile/effects.ts';
import type { Action, StateSpec, TransitionSpec } from '../compile/StateSpec.ts';
import { parseDuration } from '../schema/s.ts';
import { compileDial, type DialParams } from './dial.ts';
import type { StepBuild } from './StepDefinition.ts';
import type { TransferParams } from './transfer.ts';

/** A request about a channel or bridge that may be gone already: gone is done. */
function ignoreGone(error: unknown): undefined {
  if (isResourceGone(error)) return undefined;
  throw error;
}

/** The event is about the target's channel (the call the dial placed: `step.peer`). */
function aboutTarget({ context, event }: ActionArgs): boolean {
  return (
    isEventType(event, 'ChannelDtmfReceived', 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed') &&
    event.channel.id === context.step.peer
  );
}

/** The event is the call's own channel leaving (the caller hung up, or it left the application). */
function callerLeaving({ context, event }: ActionArgs): boolean {
  return (
    isEventType(event, 'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed') &&
    event.channel.id === context.call.channelId
  );
}

/** The key the target pressed (undefined for any other event). */
function keyOf({ event }: ActionArgs): string | undefined {
  return isEventType(event, 'ChannelDtmfReceived') ? event.digit : undefined;
}

/**
 * Attended (consultative) transfer: the caller hears music on hold while the flow dials the
 * target (the dial step's statechart, not bridged); the target alone hears `announce`; with
 * `confirm` they press the key to accept. Accepted: the music stops and the two are bridged; the
 * step waits until the target hangs up (`completed`, the caller is back in the flow). Declined,
 * busy, no answer, failed: the target's call is ended, the music stops and the caller is back in
 * the flow with that outcome. The caller hanging up at any time runs the flow's hangup handler;
 * the step's exit hangs up the target unless they are already gone.
 *
 * With `stepOut` the flow's part ends once the two are bridged: the step only keeps the pair
 * (the server does not end an application's bridge by itself): when either hangs up, the other is
 * hung up and the bridge destroyed, and the flow ends with `transferred` (`left`: who hung up
 * first). Its next steps and its hangup handler do not run.
 */
export function compileAttendedTransfer(p: TransferParams, build: StepBuild): StateSpec {
  const id = (name: string) => `${build.key}~transfer~${name}`;
  const confirmKey = p.confirm ? (p.confirm.key ?? '1') : undefined;
  const confirmMs = parseDuration(p.confirm?.timeout ?? '10s') ?? 10_000;
  const target = ({ context }: ActionArgs) => ({ channelId: context.step.peer });
  const declined = (reason: 'key' | 'timeout' | 'hungUp', before: ReturnType<typeof setStep>[] = []) =>
    build.exit(
      'declined',
      (args) => ({
        ...target(args),
        reason,
        ...(reason === 'key' ? { digit: keyOf(args) } : {}),
      }),
      before,
    );
  const targetGone = setStep(() => ({ targetUp: false }));
  // The dial's own outcomes, as this step's: answered goes on to the consultation.
  const consultBuild: StepBuild = {
    key: build.key,
    flow: build.flow,
    exit(outcome, data, before = []): TransitionSpec {
      if (outcome === 'answered')
        return {
          target: `#${id(confirmKey === undefined ? 'connecting' : 'confirming')}`,
          actions: [...before, setStep(() => ({ targetUp: true }))],
        };
      // Not bridged, so completed means the target hung up during the announcement.
      if (outcome === 'completed') return declined('hungUp', [...before]);
      return build.exit(outcome, data, before);
    },
  };
  const dial: DialParams = {
    endpoint: p.endpoint ?? '',
    bridge: false,
    // The caller hears the step's own music from the start until the two are bridged.
    ringback: 'none',
    ...(p.timeout !== undefined ? { timeout: p.timeout } : {}),
    ...(p.callerId !== undefined ? { callerId: p.callerId } : {}),
    ...(p.announce !== undefined ? { announce: p.announce } : {}),
  };
  const targetLeft = (transition: TransitionSpec): Record<string, TransitionSpec> => ({
    ChannelHangupRequest: { guard: aboutTarget, ...transition },
    StasisEnd: { guard: aboutTarget, ...transition },
    ChannelDestroyed: { guard: aboutTarget, ...transition },
  });
  // Accepted, staying to watch: the caller comes back to the flow when the target hangs up.
  const watching: StateSpec = {
    on: targetLeft({ target: 'targetLeft' }),
    exit: [setContext(() => ({ bridgeId: undefined }))],
  };
  // Accepted, stepping out: whoever hangs up first, the other follows and the flow ends.
  const handedOver = (left: 'caller' | 'target', before: Action[] = []) =>
    build.exit(
      'transferred',
      ({ context }) => ({
        to: context.step.endpoint,
        channelId: context.step.peer,
        bridgeId: context.step.transferBridge,
        left,
      }),
      // The flow's run ends transferred (not continued: the caller was handed over, not sent on).
      [...before, setContext(() => ({ status: 'transferred' }))],
    );
  const steppedOut: StateSpec = {
    initial: 'talking',
    exit: [setContext(() => ({ bridgeId: undefined }))],
    states: {
      talking: {
        on: {
          // The caller's hang-up is the end of the conversation, not the flow's caller leaving:
          // handled here, before the flow's hangup handler (the step's exit hangs the target up).
          // The step ends on its channel's StasisEnd: ending before it, the session would hang
          // up a channel still in the application.
          ChannelHangupRequest: [
            { guard: aboutTarget, target: 'hangingUpCaller' },
            { guard: callerLeaving, actions: [] },
          ],
          StasisEnd: [
            { guard: aboutTarget, target: 'hangingUpCaller' },
            { guard: callerLeaving, ...handedOver('caller', [setContext(() => ({ hungUp: true }))]) },
          ],
          ChannelDestroyed: [
            { guard: aboutTarget, target: 'hangingUpCaller' },
            { guard: callerLeaving, ...handedOver('caller', [setContext(() => ({ hungUp: true }))]) },
          ],
        },
      },
      // The target hung up: the caller is hung up with them (its own hang-up events are the
      // step's doing from here: hungUp is set first so the flow's hangup handler stays out).
      hangingUpCaller: {
        entry: [targetGone, setContext(() => ({ hungUp: true }))],
        effect: effect(
          ({ context }) =>
            context.host.ari.channels.hangup({ channelId: context.call.channelId }).catch(ignoreGone),
          { onDone: handedOver('target'), onError: handedOver('target') },
        ),
      },
    },
  };
  return {
    entry: [
      setStep(() => ({ mohOn: true, targetUp: false, transferBridge: undefined })),
      fireAndForget(
        ({ context }) =>
          context.host.ari.channels.startMoh({
            channelId: context.call.channelId,
            ...(p.mohClass ? { mohClass: p.mohClass } : {}),
          }),
        'start music on hold for the transfer',
      ),
    ],
    // Whatever ends the step: the caller's music stops, a target not bridged is hung up, the
    // bridge of the two does not outlive it.
    exit: [
      fireAndForget(async ({ context }) => {
        const { ari } = context.host;
        // The bridge first: the flow's next step may play to the caller at once.
        if (context.step.transferBridge)
          await ari.bridges.destroy({ bridgeId: String(context.step.transferBridge) }).catch(ignoreGone);
        if (context.step.mohOn === true)
          await ari.channels.stopMoh({ channelId: context.call.channelId }).catch(ignoreGone);
        if (context.step.targetUp === true)
          await ari.channels.hangup({ channelId: String(context.step.peer) }).catch(ignoreGone);
      }, 'transfer cleanup'),
    ],
    initial: 'consulting',
    states: {
      consulting: compileDial(dial, consultBuild),
      confirming: {
        id: id('confirming'),
        on: {
          ChannelDtmfReceived: [
            {
              guard: (a: ActionArgs) => aboutTarget(a) && keyOf(a) === confirmKey,
              target: 'connecting',
            },
            { guard: aboutTarget, ...declined('key') },
          ],
          ...targetLeft(declined('hungUp', [targetGone])),
        },
        after: { [confirmMs]: declined('timeout') },
      },
      connecting: {
        id: id('connecting'),
        entry: [setStep(({ context }) => ({ transferBridge: context.host.newId('bridge') }))],
        effect: effect(
          async ({ context }) => {
            const { ari } = context.host;
            await ari.channels.stopMoh({ channelId: context.call.channelId });
            const bridgeId = String(context.step.transferBridge);
            await ari.bridges.createWithId({ bridgeId, type: 'mixing' });
            await ari.bridges.addChannel({
              bridgeId,
              channel: [context.call.channelId, String(context.step.peer)],
            });
          },
          {
            onDone: {
              target: 'connected',
              actions: [
                setStep(() => ({ mohOn: false })),
                setContext(({ context }) => ({ bridgeId: String(context.step.transferBridge) })),
              ],
            },
            onError: build.exit('failed', failureData),
          },
        ),
        on: targetLeft(declined('hungUp', [targetGone])),
      },
      connected: p.stepOut === true ? steppedOut : watching,
      // The step's exit (cleanup) runs before a transition's own actions: what it must know (the
      // target is gone, nothing to hang up) is set on entering this state, which then leaves.
      targetLeft: {
        entry: [targetGone],
        always: build.exit('completed', ({ context }) => ({
          channelId: context.step.peer,
          bridgeId: context.step.transferBridge,
        })),
      },
    },
  };
}
