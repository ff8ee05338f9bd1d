/**
 * Friendly names of the events a state (or the whole flow) can handle in `on`, and the server
 * events behind them. `own` events are only those of this call's channel. Raw event types
 * (`ChannelVarset`, ...) can be used too, and `userEvent:<Name>` matches one user event name.
 */
export const flowEvents = {
  hangup: {
    ari: ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed'],
    own: true,
    description: 'The caller hung up (or the call left the application).',
  },
  dtmf: {
    ari: ['ChannelDtmfReceived'],
    own: true,
    description: 'A key press outside gather/menu (`event.digit`).',
  },
  userEvent: {
    ari: ['ChannelUserevent'],
    own: false,
    description: 'A user event (`event.eventname`, `event.userevent`).',
  },
  textMessage: {
    ari: ['TextMessageReceived'],
    own: false,
    description: 'An inbound text message (`event.message.from`, `.body`).',
  },
  talkingStarted: {
    ari: ['ChannelTalkingStarted'],
    own: true,
    description: 'Talk detection: the caller started talking.',
  },
  talkingFinished: {
    ari: ['ChannelTalkingFinished'],
    own: true,
    description: 'Talk detection: the caller stopped talking (`event.duration`).',
  },
  hold: { ari: ['ChannelHold'], own: true, description: 'The caller put the call on hold.' },
  unhold: { ari: ['ChannelUnhold'], own: true, description: 'The caller took the call off hold.' },
  roomEntered: {
    ari: ['ChannelEnteredBridge'],
    own: false,
    description:
      'Someone entered a room (bridge) this call is in, this call included (`event.channel.id`, `event.bridge.channels`).',
  },
  roomLeft: {
    ari: ['ChannelLeftBridge'],
    own: false,
    description:
      'Someone left a room (bridge) this call is in, this call included (`event.channel.id`, `event.bridge.channels`).',
  },
  roomClosed: {
    ari: ['BridgeDestroyed'],
    own: false,
    description:
      'A room (bridge) this call is in was destroyed, everyone taken out of it (`event.bridge.id`).',
  },
  transferred: {
    ari: ['BridgeBlindTransfer', 'BridgeAttendedTransfer'],
    own: false,
    description:
      'A phone transferred a call this call takes part in (`event.transferee`, `event.exten`, `event.transfer_target`...); when its own channel was replaced, the call goes on on the new one.',
  },
  deviceState: { ari: ['DeviceStateChanged'], own: false, description: 'A subscribed device changed state.' },
  /** Not a server event: a step failure no step handled (`event.message`, `event.step`). */
  error: { ari: [], own: false, description: 'A step failed and its own `on` did not handle it.' },
} as const;

export type FlowEventName = keyof typeof flowEvents;

export const USER_EVENT_PREFIX = 'userEvent:';
