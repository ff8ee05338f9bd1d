import { isResourceGone } from '@ringflow/client/interface';
import { isEventType } from '@ringflow/client/interface';
import type { ActionArgs } from '../compile/FlowContext.ts';
import { describeFailure, resolveOptional, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData, fireAndForget, setStep } from '../compile/effects.ts';
import { type StateSpec, type TransitionSpec, withActions } from '../compile/StateSpec.ts';
import { type Duration, parseDuration } from '../schema/s.ts';
import type { DetectMachineParams } from './detectMachine.ts';
import type { StepBuild } from './StepDefinition.ts';

/** Talk detection as the step sets it: talking ends after 300 ms of silence (the server's default is 2.5 s). */
const TALK_DETECT = '300,256';
/** A sound after the greeting at most this long is its beep. */
const MAX_BEEP_MS = 1500;

/** AMDSTATUS and AMDCAUSE (the server's, or the talk detector's in the same words). */
type Verdict = { readonly status: string; readonly cause: string };

/** The event is talk detection on the channel listened to. */
function talkOf(type: 'ChannelTalkingStarted' | 'ChannelTalkingFinished') {
  return ({ context, event }: ActionArgs) =>
    isEventType(event, type) && event.channel.id === context.step.target;
}

/** The length of the talk that just finished (0 for any other event). */
function talkDuration({ event }: ActionArgs): number {
  return isEventType(event, 'ChannelTalkingFinished') ? event.duration : 0;
}

/**
 * The statechart of detectMachine (see detectMachine.ts). The talk detector mirrors the server's
 * AMD() on talk events: silence first too long → machine; one stretch of speech, or all of them,
 * longer than `greeting` → machine; `maximumWords` stretches → machine; a short greeting followed
 * by `afterGreetingSilence` of silence → human; nothing decided in `totalAnalysisTime` → notSure.
 * The server detector sends the channel to AMD() in the dialplan and reads AMDSTATUS/AMDCAUSE when
 * it comes back. On a machine, both then wait for the beep: the next short sound after the greeting.
 */
export function compileDetectMachine(p: DetectMachineParams, build: StepBuild): StateSpec {
  const ms = (value: Duration | undefined, fallback: string) => parseDuration(value ?? fallback) ?? 0;
  const initialSilence = ms(p.initialSilence, '2500ms');
  const greeting = ms(p.greeting, '1500ms');
  const afterGreetingSilence = ms(p.afterGreetingSilence, '800ms');
  const total = ms(p.totalAnalysisTime, '5s');
  const beepTimeout = ms(p.beepTimeout, '20s');
  const maximumWords = p.maximumWords ?? 3;
  const waitForBeep = p.waitForBeep !== false;
  const detector = p.detector ?? 'talk';
  const beepWait = `#${build.key}~amd~beep`;

  const figures = ({ context }: ActionArgs) => {
    const verdict = context.step.verdict as Verdict | undefined;
    return {
      detector,
      status: verdict?.status ?? 'NOTSURE',
      cause: verdict?.cause ?? '',
      ...(detector === 'talk' ? { greetingMs: context.step.voiceMs, words: context.step.words } : {}),
    };
  };
  const decide = (verdict: (a: ActionArgs) => Verdict) => setStep((a) => ({ verdict: verdict(a) }));
  /** A machine: wait for its beep (in `state` of the beep wait), or end the step now. */
  const machine = (
    verdict: (a: ActionArgs) => Verdict,
    state: 'waiting' | 'greetingGoesOn',
  ): TransitionSpec =>
    waitForBeep
      ? { target: `${beepWait}~${state}`, actions: [decide(verdict)] }
      : build.exit('machine', figures, [decide(verdict)]);

  const voiced = ({ context }: ActionArgs) => Number(context.step.voiceMs);
  const talkAnalysis: StateSpec = {
    after: {
      [total]: build.exit('notSure', figures, [
        decide(() => ({ status: 'NOTSURE', cause: `TOOLONG-${total}` })),
      ]),
    },
    initial: 'silent',
    states: {
      silent: {
        on: {
          ChannelTalkingStarted: {
            guard: talkOf('ChannelTalkingStarted'),
            target: 'talking',
            actions: [setStep(({ context }) => ({ words: Number(context.step.words) + 1 }))],
          },
        },
        after: {
          [initialSilence]: machine(
            () => ({ status: 'MACHINE', cause: `INITIALSILENCE-${initialSilence}-${initialSilence}` }),
            'waiting',
          ),
        },
      },
      talking: {
        on: {
          ChannelTalkingFinished: [
            {
              guard: (a: ActionArgs) =>
                talkOf('ChannelTalkingFinished')(a) && voiced(a) + talkDuration(a) >= greeting,
              ...machine(
                // Run after the state's exit, which has counted the talk that finished.
                (a) => ({ status: 'MACHINE', cause: `LONGGREETING-${voiced(a)}-${greeting}` }),
                'waiting',
              ),
            },
            { guard: talkOf('ChannelTalkingFinished'), target: 'paused' },
          ],
        },
        // Whatever the transition, the talk that finished counts.
        exit: [setStep((a) => ({ voiceMs: voiced(a) + talkDuration(a) }))],
        after: {
          // Still talking after `greeting`: that much speech was heard (the exit added none).
          [greeting]: withActions(
            machine(
              () => ({ status: 'MACHINE', cause: `LONGGREETING-${greeting}-${greeting}` }),
              'greetingGoesOn',
            ),
            [setStep((a) => ({ voiceMs: voiced(a) + greeting }))],
          ),
        },
      },
      paused: {
        on: {
          ChannelTalkingStarted: [
            {
              guard: (a: ActionArgs) =>
                talkOf('ChannelTalkingStarted')(a) && Number(a.context.step.words) + 1 >= maximumWords,
              ...machine(
                (a) => ({
                  status: 'MACHINE',
                  cause: `MAXWORDS-${Number(a.context.step.words) + 1}-${maximumWords}`,
                }),
                'greetingGoesOn',
              ),
            },
            {
              guard: talkOf('ChannelTalkingStarted'),
              target: 'talking',
              actions: [setStep(({ context }) => ({ words: Number(context.step.words) + 1 }))],
            },
          ],
        },
        after: {
          [afterGreetingSilence]: build.exit('human', figures, [
            decide(() => ({
              status: 'HUMAN',
              cause: `HUMAN-${afterGreetingSilence}-${afterGreetingSilence}`,
            })),
          ]),
        },
      },
    },
  };

  const beep: StateSpec = {
    id: `${build.key}~amd~beep`,
    after: { [beepTimeout]: build.exit('machine', figures) },
    initial: 'waiting',
    states: {
      greetingGoesOn: {
        id: `${build.key}~amd~beep~greetingGoesOn`,
        on: { ChannelTalkingFinished: { guard: talkOf('ChannelTalkingFinished'), target: 'waiting' } },
      },
      waiting: {
        id: `${build.key}~amd~beep~waiting`,
        on: { ChannelTalkingStarted: { guard: talkOf('ChannelTalkingStarted'), target: 'beeping' } },
      },
      beeping: {
        on: {
          ChannelTalkingFinished: [
            {
              guard: (a: ActionArgs) => talkOf('ChannelTalkingFinished')(a) && talkDuration(a) <= MAX_BEEP_MS,
              ...build.exit('beep', figures),
            },
            { guard: talkOf('ChannelTalkingFinished'), target: 'waiting' },
          ],
        },
      },
    },
  };

  const talkOn = (args: ActionArgs) =>
    args.context.host.ari.channels.setChannelVar({
      channelId: String(args.context.step.target),
      variable: 'TALK_DETECT(set)',
      value: TALK_DETECT,
    });

  return {
    entry: [
      setStep((args) => ({
        target: resolveOptional(p.channel, scopeOf(args.context, args.event)) ?? args.context.call.channelId,
        words: 0,
        voiceMs: 0,
        verdict: undefined,
        talkOn: false,
      })),
    ],
    exit: [
      fireAndForget(async ({ context }) => {
        if (context.step.talkOn !== true) return;
        await context.host.ari.channels
          .setChannelVar({
            channelId: String(context.step.target),
            variable: 'TALK_DETECT(remove)',
            value: '',
          })
          .catch((error: unknown) => {
            if (!isResourceGone(error)) throw error;
          });
      }, 'turn talk detection off'),
    ],
    initial: 'arming',
    states:
      detector === 'talk'
        ? {
            arming: {
              effect: effect(talkOn, {
                onDone: { target: 'analysing', actions: [setStep(() => ({ talkOn: true }))] },
                onError: build.exit('failed', failureData),
              }),
            },
            analysing: talkAnalysis,
            beep,
          }
        : serverStates(p, build, { machine, figures, talkOn, decide }, beep, total),
  };
}

/** detector: server: AMD() in the dialplan, back in the application with its verdict. */
function serverStates(
  p: DetectMachineParams,
  build: StepBuild,
  helpers: {
    machine: (verdict: (a: ActionArgs) => Verdict, state: 'waiting' | 'greetingGoesOn') => TransitionSpec;
    figures: (a: ActionArgs) => Record<string, unknown>;
    talkOn: (a: ActionArgs) => Promise<unknown>;
    decide: (verdict: (a: ActionArgs) => Verdict) => ReturnType<typeof setStep>;
  },
  beep: StateSpec,
  total: number,
): Record<string, StateSpec> {
  const { machine, figures, decide } = helpers;
  const place = {
    context: p.dialplan?.context ?? 'ringflow-amd',
    extension: p.dialplan?.extension ?? 's',
    priority: p.dialplan?.priority ?? 1,
  };
  const isTarget = ({ context, event }: ActionArgs) =>
    isEventType(event, 'StasisStart', 'ChannelDestroyed') && event.channel.id === context.step.target;
  const verdictOf = ({ event }: ActionArgs): Verdict => {
    const { output } = event; // the reading effect's result
    return typeof output === 'object' && output !== null && 'status' in output && 'cause' in output
      ? { status: String(output.status), cause: String(output.cause) }
      : { status: 'NOTSURE', cause: '' };
  };
  const answered = (status: string) => (a: ActionArgs) => verdictOf(a).status === status;
  const waitForBeep = p.waitForBeep !== false;
  return {
    arming: {
      effect: effect(
        async ({ context }) => {
          const channelId = String(context.step.target);
          const { ari } = context.host;
          await ari.channels.setChannelVar({
            channelId,
            variable: 'RINGFLOW_AMD_APP',
            value: context.host.application,
          });
          await ari.channels.continueInDialplan({ channelId, ...place });
        },
        { onDone: { target: 'away' }, onError: build.exit('failed', failureData) },
      ),
      // Its StasisStart (back from AMD()) may come before the reply to continue.
      on: { StasisStart: { guard: isTarget, target: 'reading' } },
    },
    away: {
      on: {
        StasisStart: { guard: isTarget, target: 'reading' },
        ChannelDestroyed: {
          guard: isTarget,
          ...build.exit('failed', () => ({
            message: 'the called party hung up during detection',
            cause: 'other',
          })),
        },
      },
      // AMD() decides within its analysis time; this is the safety net of a dialplan that never comes back.
      after: {
        [total + 30_000]: build.exit('failed', () => ({
          message: `the channel did not come back from ${place.context},${place.extension},${place.priority} (does it end with Stasis(\${RINGFLOW_AMD_APP})?)`,
          cause: 'timeout',
        })),
      },
    },
    reading: {
      effect: effect(
        async (args) => {
          const channelId = String(args.context.step.target);
          const { ari } = args.context.host;
          // A variable never set answers 404 (no AMD() ran): read as empty.
          const read = (variable: string) =>
            ari.channels
              .getChannelVar({ channelId, variable })
              .then((v) => v.value)
              .catch((error: unknown) => {
                const failure = describeFailure(error);
                if (failure.status === 404 && /variable/i.test(failure.serverMessage ?? '')) return '';
                throw error;
              });
          const status = await read('AMDSTATUS');
          const cause = await read('AMDCAUSE');
          if (status === 'MACHINE' && waitForBeep) await helpers.talkOn(args);
          return { status, cause };
        },
        {
          onDone: [
            { guard: answered('HUMAN'), ...build.exit('human', figures, [decide(verdictOf)]) },
            {
              guard: answered('MACHINE'),
              ...withTalkOn(machine(verdictOf, 'waiting'), waitForBeep),
            },
            { guard: answered('NOTSURE'), ...build.exit('notSure', figures, [decide(verdictOf)]) },
            build.exit('failed', (a) => ({
              message: `AMD() gave AMDSTATUS '${verdictOf(a).status}' (a hang-up, or no AMD() in ${place.context},${place.extension},${place.priority})`,
              cause: 'other',
            })),
          ],
          onError: build.exit('failed', failureData),
        },
      ),
    },
    beep,
  };
}

/** The beep wait after the server's MACHINE listens with talk detection (turned on by the read). */
function withTalkOn(transition: TransitionSpec, on: boolean): TransitionSpec {
  return on
    ? { ...transition, actions: [setStep(() => ({ talkOn: true })), ...(transition.actions ?? [])] }
    : transition;
}
