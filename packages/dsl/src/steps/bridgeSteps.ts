import type { ActionArgs } from '../compile/FlowContext.ts';
import { resolveOptional, resolveValue, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData, setContext, setStep } from '../compile/effects.ts';
import { playFragment } from '../compile/playFragment.ts';
import { resolveMedia } from '../compile/resolveMedia.ts';
import { playableFields } from '../model/media.ts';
import { s } from '../schema/s.ts';
import { type RoomJoined, joinRoom } from './joinRoom.ts';
import { recordingOf } from './recordingEvent.ts';
import { recordingRequest } from './recordingRequest.ts';
import { restStep } from './restStep.ts';
import { FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

const BRIDGE_TYPES = [
  'mixing',
  'holding',
  'dtmf_events',
  'proxy_media',
  'video_sfu',
  'video_single',
] as const;

/** Bridges are named by the flow; the id is derived so every call naming the same room meets in it. */
export function bridgeIdForName(name: string): string {
  return `ringflow-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

function currentBridge({ context }: ActionArgs): string {
  if (!context.bridgeId) throw new Error('this call is not in a bridge; run a conference step first');
  return context.bridgeId;
}

const conferenceParams = stepParams(
  {
    name: s.value(
      s.string({ description: 'The room name; calls giving the same name meet in the same bridge.' }),
    ),
    type: s.optional(
      s.array(s.enum(BRIDGE_TYPES), { description: 'Bridge attributes.', default: ['mixing'] }),
    ),
    role: s.optional(
      s.string({ description: 'Role of this call in the bridge (e.g. announcer in a holding bridge).' }),
    ),
    mute: s.optional(s.boolean({ description: 'Join muted.', default: false })),
    absorbDTMF: s.optional(
      s.boolean({ description: "Keep this call's key presses from reaching the others.", default: false }),
    ),
    closeOnLeave: s.optional(
      s.value(
        s.boolean({
          description:
            'The room ends when this call leaves it (leaveBridge or hang-up): the bridge is destroyed and everyone else is taken out of it (their flows get roomClosed). Default: the room ends with its last participant.',
          default: false,
        }),
      ),
    ),
  },
  'Creates the room if it does not exist yet, and joins it.',
);

/**
 * conference: creates a named room or joins it when it exists (race-safe: see {@link joinRoom}).
 * Outcomes: joined (`event.bridgeId`, `created`, `members`, `count`, `videoSource`), failed.
 */
export const conferenceStep = defineStep({
  name: 'conference',
  description:
    'Joins a named room (a bridge every call naming it meets in), creating it if it does not exist yet.',
  params: conferenceParams,
  bare: false,
  outcomes: [
    {
      name: 'joined',
      kind: 'success',
      description: 'The call is in the room.',
      data: {
        bridgeId: ['string', 'the bridge id'],
        created: ['bool', 'true when this call opened the room'],
        members: ['dyn', 'channel ids in the room once this call joined (this call included)'],
        count: ['int', 'how many are in the room, this call included'],
        videoSource: ['string', "the channel whose video everyone sees, '' when none was set"],
      },
    },
    FAILED,
  ],
  label: (p) => `conference ${typeof p.name === 'string' ? p.name : 'expr'}`,
  compile: (p, build) => ({
    effect: effect(
      async (args) => {
        const { context } = args;
        const scope = scopeOf(context, args.event);
        const name = resolveValue(p.name, scope);
        const bridgeId = bridgeIdForName(name);
        const closeOnLeave = resolveOptional(p.closeOnLeave, scope) === true;
        // The room's own events (video source, moh, others entering) concern every call in it. It
        // outlives this call unless it closes when this call leaves.
        context.host.watch?.('bridge', bridgeId, { shared: !closeOnLeave });
        const joined = await joinRoom(context.host, {
          bridgeId,
          name,
          type: p.type ?? ['mixing'],
          typeGiven: p.type !== undefined,
          channel: context.call.channelId,
          ...(p.role ? { role: p.role } : {}),
          ...(p.mute !== undefined ? { mute: p.mute } : {}),
          ...(p.absorbDTMF !== undefined ? { absorbDTMF: p.absorbDTMF } : {}),
        });
        return { ...joined, closeOnLeave };
      },
      {
        onDone: {
          ...build.exit(
            'joined',
            ({ event }) => {
              const { bridgeId, created, members, count, videoSource } = event.output as RoomJoined;
              return { bridgeId, created, members, count, videoSource };
            },
            [
              setContext(({ event }) => {
                const joined = event.output as RoomJoined & { closeOnLeave: boolean };
                return { bridgeId: joined.bridgeId, roomClosesOnLeave: joined.closeOnLeave };
              }),
            ],
          ),
        },
        onError: build.exit('failed', failureData),
      },
    ),
  }),
});

/** leaveBridge: removes the call from its bridge (optionally destroying it). */
export const leaveBridgeStep = restStep({
  name: 'leaveBridge',
  description: 'Takes the call out of its bridge.',
  params: stepParams(
    {
      destroy: s.optional(
        s.boolean({
          description: 'Also destroy the bridge (a room joined with closeOnLeave: true is destroyed anyway).',
          default: false,
        }),
      ),
    },
    'Takes the call out of its bridge.',
  ),
  bare: true,
  run: async (p, args) => {
    const bridgeId = currentBridge(args);
    await args.context.host.ari.bridges.removeChannel({ bridgeId, channel: args.context.call.channelId });
    if (p.destroy || args.context.roomClosesOnLeave)
      await args.context.host.ari.bridges.destroy({ bridgeId });
  },
});

/**
 * kick: takes another call out of this call's room (a moderator's keypad): it leaves the bridge,
 * and its flow hears `roomLeft` about its own channel. Outcomes: done, failed.
 */
export const kickStep = restStep({
  name: 'kick',
  description: "Takes another call out of this call's room (its flow gets roomLeft about itself).",
  params: stepParams(
    {
      channel: s.value(
        s.string({
          description: 'The channel to take out (a room member: vars.lastJoined, event.channel.id).',
        }),
      ),
    },
    "Takes another call out of this call's room.",
  ),
  bare: false,
  run: async (p, args, scope) => {
    await args.context.host.ari.bridges.removeChannel({
      bridgeId: currentBridge(args),
      channel: resolveValue(p.channel, scope),
    });
  },
});

/**
 * bridgePlay: plays on the call's bridge. The server queues it behind a playback already running
 * there. Outcomes: done (finished, or at once with wait: false), failed.
 */
export const bridgePlayStep = defineStep({
  name: 'bridgePlay',
  description: 'Plays prompts or media to everyone in the bridge (queued behind a running playback).',
  params: stepParams(
    {
      ...playableFields,
      wait: s.optional(s.boolean({ description: 'Wait until it has been played.', default: true })),
    },
    'Plays to everyone in the bridge.',
  ),
  bare: false,
  sounds: [{ at: [], required: 'The bridgePlay step' }],
  outcomes: [{ name: 'done', kind: 'success', description: 'Played (or queued, with wait: false).' }, FAILED],
  label: () => 'bridgePlay',
  compile: (p, build) => {
    if (p.wait === false)
      return {
        effect: effect(
          async (args) => {
            const { media, lang } = resolveMedia(p, args, build.flow);
            await args.context.host.ari.bridges.playWithId({
              bridgeId: currentBridge(args),
              playbackId: args.context.host.newId('playback'),
              media,
              lang,
            });
          },
          { onDone: build.exit('done'), onError: build.exit('failed', failureData) },
        ),
      };
    return playFragment({
      scratch: 'playback',
      bridge: currentBridge,
      media: (args) => resolveMedia(p, args, build.flow),
      onFinished: build.exit('done'),
      onFailed: build.exit('failed', failureData),
    });
  },
});

/** bridgeMoh: music on hold on the whole bridge, or stops it. */
export const bridgeMohStep = restStep({
  name: 'bridgeMoh',
  description: 'Starts (or with stop: true, stops) music on hold on the bridge.',
  params: stepParams(
    {
      class: s.optional(s.string({ description: 'Music-on-hold class.' })),
      stop: s.optional(s.boolean({ default: false, description: 'Stop instead of start.' })),
    },
    'Music on hold on the bridge.',
  ),
  bare: true,
  run: (p, args) =>
    p.stop
      ? args.context.host.ari.bridges.stopMoh({ bridgeId: currentBridge(args) })
      : args.context.host.ari.bridges.startMoh({
          bridgeId: currentBridge(args),
          ...(p.class ? { mohClass: p.class } : {}),
        }),
});

/** videoSource: locks the bridge's video to one channel, or (clear: true) returns to talk detection. */
export const videoSourceStep = restStep({
  name: 'videoSource',
  description: 'Sets the bridge video source (default: this call), or clears it to follow the talker.',
  params: stepParams(
    {
      channel: s.optional(
        s.value(s.string({ description: 'Channel id shown to everyone (default: this call).' })),
      ),
      clear: s.optional(s.boolean({ default: false, description: 'Go back to talk-detection mode.' })),
    },
    'Sets or clears the bridge video source.',
  ),
  bare: true,
  run: (p, args, scope) =>
    p.clear
      ? args.context.host.ari.bridges.clearVideoSource({ bridgeId: currentBridge(args) })
      : args.context.host.ari.bridges.setVideoSource({
          bridgeId: currentBridge(args),
          channelId: resolveOptional(p.channel, scope) ?? args.context.call.channelId,
        }),
});

/**
 * talkDetection: turns talk detection on (ChannelTalkingStarted / Finished events, handled with
 * `on: talkingStarted`) or off, through the TALK_DETECT channel function.
 */
export const talkDetectionStep = restStep({
  name: 'talkDetection',
  description: 'Turns talk detection on or off (events talkingStarted / talkingFinished).',
  params: stepParams(
    {
      enabled: s.optional(s.boolean({ default: true, description: 'false turns it off.' })),
      silenceThreshold: s.optional(
        s.integer({ min: 1, description: 'Milliseconds of silence that end talking.', default: 2500 }),
      ),
      talkingThreshold: s.optional(
        s.integer({ min: 1, description: 'Energy level above which audio counts as talking.', default: 256 }),
      ),
    },
    'Talk detection on the call.',
  ),
  bare: true,
  run: (p, args) =>
    p.enabled === false
      ? args.context.host.ari.channels.setChannelVar({
          channelId: args.context.call.channelId,
          variable: 'TALK_DETECT(remove)',
          value: '',
        })
      : args.context.host.ari.channels.setChannelVar({
          channelId: args.context.call.channelId,
          variable: 'TALK_DETECT(set)',
          value: `${p.silenceThreshold ?? 2500},${p.talkingThreshold ?? 256}`,
        }),
});

const bridgeRecordParams = stepParams(
  {
    stop: s.optional(
      s.boolean({
        default: false,
        description:
          'Stop a live recording instead of starting one: the one this call started last, or `name`.',
      }),
    ),
    name: s.optional(
      s.value(
        s.string({
          description:
            'Name of the stored recording (may include a folder: rooms/sales). Default: a fresh id. With stop: the recording to stop.',
        }),
      ),
    ),
    format: s.optional(
      s.string({ description: 'File format.', default: 'wav', examples: ['wav', 'gsm', 'ulaw'] }),
    ),
    maxDuration: s.optional(s.duration({ description: 'Stop after this long (0: no limit).', default: 0 })),
    maxSilence: s.optional(
      s.duration({ description: 'Stop after this much silence (0: no limit).', default: 0 }),
    ),
    beep: s.optional(
      s.boolean({ description: 'Play a beep to everyone in the bridge before recording.', default: false }),
    ),
    terminateOn: s.optional(
      s.enum(['none', 'any', '*', '#'], {
        description: 'Key (from anyone in the bridge) that stops the recording.',
        default: 'none',
      }),
    ),
    ifExists: s.optional(
      s.enum(['fail', 'overwrite', 'append'], {
        description: 'What to do when a recording of that name exists.',
        default: 'fail',
      }),
    ),
  },
  'Starts a live recording of the bridge (or, with stop: true, stops it).',
);

/**
 * bridgeRecord: starts recording everyone in the call's bridge and goes on once the recording has
 * started (it runs on beside the flow); `stop: true` stops the one this call started (or `name`).
 * Outcomes: started (`name`, `bridgeId`), stopped (`name`), failed.
 * @example
 *   - bridgeRecord: { name: { expr: "'rooms/' + input.room" }, maxDuration: 2h }
 *   - bridgeRecord: { stop: true }
 */
export const bridgeRecordStep = defineStep({
  name: 'bridgeRecord',
  description: 'Records the bridge (everyone in it) in the background; stop: true stops it.',
  params: bridgeRecordParams,
  bare: false,
  outcomes: [
    {
      name: 'started',
      kind: 'success',
      description: 'The recording is running (it goes on while the flow does other things).',
      data: {
        name: ['string', 'the recording name (recording:<name> plays it once stored)'],
        bridgeId: ['string', 'the bridge'],
      },
    },
    {
      name: 'stopped',
      kind: 'success',
      description: 'With stop: true, the recording was stopped and is being stored.',
      data: { name: ['string', 'the recording name'] },
    },
    FAILED,
  ],
  label: (p) => (p.stop ? 'bridgeRecord stop' : 'bridgeRecord'),
  compile: (p, build) => {
    if (p.stop)
      return {
        effect: effect(
          async (args) => {
            const name =
              resolveOptional(p.name, scopeOf(args.context, args.event)) ?? args.context.bridgeRecording;
            if (!name)
              throw new Error(
                'bridgeRecord stop: this call started no bridge recording; give the name to stop (name: ...)',
              );
            await args.context.host.ari.recordings.stop({ recordingName: name });
            return name;
          },
          {
            onDone: build.exit('stopped', ({ event }) => ({ name: event.output }), [
              setContext(({ context, event }) =>
                context.bridgeRecording === event.output ? { bridgeRecording: undefined } : {},
              ),
            ]),
            onError: build.exit('failed', failureData),
          },
        ),
      };
    const mine = ({ context, event }: ActionArgs) => recordingOf(event)?.name === context.step.recording;
    return {
      entry: [
        setStep((args) => ({
          recording:
            resolveOptional(p.name, scopeOf(args.context, args.event)) ??
            args.context.host.newId('recording'),
        })),
      ],
      effect: effect(
        (args) => {
          const { context } = args;
          const bridgeId = currentBridge(args);
          const name = String(context.step.recording);
          // The recording's events name it, not this call's channel: route them here.
          context.host.watch?.('recording', name);
          return context.host.ari.bridges.record({
            bridgeId,
            name,
            ...recordingRequest(p, { beep: false, terminateOn: 'none', ifExists: 'fail' }),
          });
        },
        // Its RecordingStarted (or the restored session's check of it) says it started.
        { onError: build.exit('failed', failureData), resume: 'await' },
      ),
      on: {
        // Started means recording (after the beep): what the flow waits for before going on.
        RecordingStarted: {
          guard: mine,
          ...build.exit(
            'started',
            ({ context }) => ({ name: context.step.recording, bridgeId: context.bridgeId }),
            [setContext(({ context }) => ({ bridgeRecording: String(context.step.recording) }))],
          ),
        },
        RecordingFailed: {
          guard: mine,
          ...build.exit('failed', ({ event }) => ({
            message: `bridge recording failed: ${recordingOf(event)?.cause ?? 'unknown cause'}`,
          })),
        },
      },
    };
  },
});
