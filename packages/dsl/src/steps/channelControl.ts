import { resolveOptional } from '../compile/FlowContext.ts';
import { s } from '../schema/s.ts';
import { restStep } from './restStep.ts';
import { stepParams } from './StepDefinition.ts';

const direction = s.enum(['both', 'in', 'out'], {
  description: 'Which audio direction (in: from the caller).',
  default: 'both',
});

/** answer: answers the call. Outcomes: done, failed. */
export const answerStep = restStep({
  name: 'answer',
  description: 'Answers the call.',
  params: stepParams({}, 'Answers the call.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.answer({ channelId: context.call.channelId }),
});

/** hold / unhold: puts the caller on hold or takes them off. */
export const holdStep = restStep({
  name: 'hold',
  description: 'Puts the call on hold (the server plays its hold treatment).',
  params: stepParams({}, 'Puts the call on hold.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.hold({ channelId: context.call.channelId }),
});

export const unholdStep = restStep({
  name: 'unhold',
  description: 'Takes the call off hold.',
  params: stepParams({}, 'Takes the call off hold.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.unhold({ channelId: context.call.channelId }),
});

const otherChannel = s.value(
  s.string({
    description:
      "Another call's channel (a room member, from a moderator's keypad: vars.lastJoined); default this call.",
  }),
);

/** mute / unmute one or both audio directions of this call, or of another call's channel. */
export const muteStep = restStep({
  name: 'mute',
  description: 'Mutes the call (or another channel: a room member) in one or both directions.',
  params: stepParams(
    { direction: s.optional(direction), channel: s.optional(otherChannel) },
    'Mutes the call.',
  ),
  bare: true,
  run: (p, { context }, scope) =>
    context.host.ari.channels.mute({
      channelId: resolveOptional(p.channel, scope) ?? context.call.channelId,
      direction: p.direction ?? 'both',
    }),
});

export const unmuteStep = restStep({
  name: 'unmute',
  description: 'Unmutes the call (or another channel: a room member) in one or both directions.',
  params: stepParams(
    { direction: s.optional(direction), channel: s.optional(otherChannel) },
    'Unmutes the call.',
  ),
  bare: true,
  run: (p, { context }, scope) =>
    context.host.ari.channels.unmute({
      channelId: resolveOptional(p.channel, scope) ?? context.call.channelId,
      direction: p.direction ?? 'both',
    }),
});

/** ring / stopRinging: locally generated ringback. */
export const ringStep = restStep({
  name: 'ring',
  description: 'Plays ringback to the caller until stopRinging (or other media).',
  params: stepParams({}, 'Starts ringback.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.ring({ channelId: context.call.channelId }),
});

export const stopRingingStep = restStep({
  name: 'stopRinging',
  description: 'Stops the ringback started by ring.',
  params: stepParams({}, 'Stops ringback.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.ringStop({ channelId: context.call.channelId }),
});

/** startSilence / stopSilence: the silence generator (stops by itself when other media starts). */
export const startSilenceStep = restStep({
  name: 'startSilence',
  description: 'Plays silence to the caller until stopSilence or until other media starts.',
  params: stepParams({}, 'Starts the silence generator.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.startSilence({ channelId: context.call.channelId }),
});

export const stopSilenceStep = restStep({
  name: 'stopSilence',
  description: 'Stops the silence generator.',
  params: stepParams({}, 'Stops the silence generator.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.stopSilence({ channelId: context.call.channelId }),
});

/** startMoh / stopMoh: music on hold on the call. */
export const startMohStep = restStep({
  name: 'startMoh',
  description: 'Plays music on hold to the caller.',
  params: stepParams(
    {
      class: s.optional(
        s.value(s.string({ description: 'Music-on-hold class (server default when absent).' })),
      ),
    },
    'Starts music on hold.',
  ),
  bare: true,
  run: (p, { context }, scope) => {
    const mohClass = resolveOptional(p.class, scope);
    return context.host.ari.channels.startMoh({
      channelId: context.call.channelId,
      ...(mohClass ? { mohClass } : {}),
    });
  },
});

export const stopMohStep = restStep({
  name: 'stopMoh',
  description: 'Stops music on hold.',
  params: stepParams({}, 'Stops music on hold.'),
  bare: true,
  run: (_p, { context }) => context.host.ari.channels.stopMoh({ channelId: context.call.channelId }),
});
