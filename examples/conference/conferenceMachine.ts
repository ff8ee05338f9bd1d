import type { ChannelDtmfReceived, ChannelTalkingStarted } from '@ringflow/client';
import {
  type CallEvent,
  type CallHandle,
  type CallInput,
  callActor,
  callActors,
  type WithCall,
} from '@ringflow/runtime';
import { assign, setup } from 'xstate';
import type { ConferenceRoom } from './ConferenceRoom.ts';
import type { ConferenceRooms, RoomEntry } from './ConferenceRooms.ts';

interface ConferenceContext {
  readonly call: CallHandle;
  readonly roomName: string;
  readonly room?: ConferenceRoom;
  readonly moderator: boolean;
  readonly ending?: ConferenceOutput['ending'];
}

/** What a conference call reports when it ends (`output` of `app.callEnded$`). */
export interface ConferenceOutput {
  readonly room: string;
  /** True when the caller opened the room (and so was its first moderator). */
  readonly moderator: boolean;
  /** How the machine ended: the caller hung up (`gone`), or a request failed (`failed`). */
  readonly ending: 'gone' | 'failed';
}

/**
 * The room a call asks for: the first argument of `Stasis(app,room)` (the shipped simulator
 * dialplan passes the dialled number), else the extension dialled. Names are kept to letters,
 * digits, `-` and `_` because they end up in bridge and recording names.
 *
 * @example
 * roomNameOf(call); // 'standup' for Stasis(conference,standup)
 */
export function roomNameOf(call: CallHandle): string {
  const raw = call.args[0] ?? call.start.channel.dialplan?.exten ?? '';
  const name = raw.replace(/[^A-Za-z0-9_-]/g, '_');
  return name === '' || name === 's' ? 'lobby' : name;
}

const enterRoom = callActor(
  ({ call, rooms, roomName }: WithCall & { rooms: ConferenceRooms; roomName: string }) =>
    rooms.enter(roomName, call.server.name, call.channelId, call.signal),
);

/** An event about the call's own channel (bridge events of the other members reach every call). */
function mine(context: ConferenceContext, event: CallEvent): boolean {
  const channel = (event as { channel?: { id?: string } }).channel;
  return channel?.id === context.call.channelId;
}

/**
 * One caller of a conference: answer, enter the room named by the call (the first caller opens
 * it: a mixing bridge), turn talk detection on (`TALK_DETECT(set)`), hear a join prompt, join
 * the bridge (everyone hears the entry tone), then stay: talking moves the video to this caller,
 * the moderator's keys switch the video mode (`#`) and the recording (`*`). The caller leaving
 * the application ends the machine in `gone`; the room notices through the call's end.
 *
 * @example
 * const machine = createConferenceMachine(rooms);
 * createApplication({ servers, apps: ['conference'], call: machine });
 */
export function createConferenceMachine(rooms: ConferenceRooms) {
  return setup({
    types: {
      input: {} as CallInput,
      context: {} as ConferenceContext,
      events: {} as CallEvent,
      output: {} as ConferenceOutput,
    },
    actors: { ...callActors, enterRoom },
  }).createMachine({
    id: 'conference',
    context: ({ input }) => ({ call: input.call, roomName: roomNameOf(input.call), moderator: false }),
    initial: 'answering',
    on: {
      // The caller hung up while a request was on its way.
      'call.gone': '.gone',
      StasisEnd: { guard: ({ context, event }) => mine(context, event), target: '.gone' },
    },
    states: {
      answering: {
        invoke: {
          src: 'answer',
          onDone: 'entering',
          onError: 'failed',
        },
      },
      entering: {
        invoke: {
          src: 'enterRoom',
          input: ({ context }) => ({ call: context.call, rooms, roomName: context.roomName }),
          onDone: {
            target: 'detectingTalk',
            actions: assign(({ event }) => {
              const entry: RoomEntry = event.output;
              return { room: entry.room, moderator: entry.moderator };
            }),
          },
          onError: 'failed',
        },
      },
      detectingTalk: {
        invoke: {
          src: 'request',
          input: ({ context }) => ({
            operation: 'channels.setChannelVar' as const,
            params: { channelId: context.call.channelId, variable: 'TALK_DETECT(set)', value: '' },
          }),
          onDone: 'prompting',
          onError: 'failed',
        },
      },
      prompting: {
        invoke: {
          src: 'play',
          input: ({ context }) => ({
            // Alone: "you are the only person in this conference"; else "you will now be placed into the conference".
            media:
              context.room?.status.members.length === 1
                ? 'sound:conf-onlyperson'
                : 'sound:conf-placeintoconf',
          }),
          onDone: 'joining',
          onError: 'failed',
        },
      },
      joining: {
        invoke: {
          src: 'joinBridge',
          input: ({ context }) => ({ bridgeId: context.room!.bridge.bridgeId }),
          onDone: {
            target: 'inRoom',
            actions: ({ context }) => context.room!.joined(context.call.channelId),
          },
          onError: 'failed',
        },
      },
      inRoom: {
        on: {
          ChannelTalkingStarted: {
            guard: ({ context, event }) => mine(context, event),
            actions: ({ context, event }) =>
              context.room!.talking((event as ChannelTalkingStarted).channel.id),
          },
          ChannelDtmfReceived: {
            guard: ({ context, event }) => mine(context, event),
            actions: ({ context, event }) =>
              context.room!.pressed(context.call.channelId, (event as ChannelDtmfReceived).digit),
          },
        },
      },
      gone: { type: 'final', entry: assign({ ending: 'gone' as const }) },
      // A final state with the channel still here: the runtime hangs the caller up.
      failed: {
        type: 'final',
        entry: [
          assign({ ending: 'failed' as const }),
          ({ context, event }) =>
            context.call.logger.warn({ err: (event as { error?: unknown }).error }, 'conference call failed'),
        ],
      },
    },
    output: ({ context }) => ({
      room: context.roomName,
      moderator: context.moderator,
      ending: context.ending ?? 'gone',
    }),
  });
}
