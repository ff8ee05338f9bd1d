/**
 * The one contract between the console's server (ringflow dev, the live view) and its page: what
 * the feed (server-sent events at `api/feed`) and `api/flows` carry. Shapes only, no Node and no
 * DOM: the server's code and the page's bundle both import it.
 */

import type { CallEnd } from '@ringflow/runtime';

/** What a timeline line tells. */
export type TimelineKind =
  | 'event'
  | 'request'
  | 'state'
  | 'end'
  | 'error'
  | 'vars'
  | 'userEvent'
  | 'failure'
  | 'timer'
  | 'agent';

/** One line of a call's timeline. */
export interface TimelineEntry {
  /** When (ms since the epoch). */
  readonly at: number;
  /** The call it belongs to (a far end's lines belong to the call that dialled it). */
  readonly call: string;
  readonly kind: TimelineKind;
  readonly text: string;
  /** An agent step's turn (kind `agent`): what the line tells, for its own look. */
  readonly turn?: AgentTurn;
}

/**
 * One turn of an agent step's conversation (docs/agents.md), as the console sees it pass between
 * ringflow and the bot (the text relay's messages): the bot connected or could not be reached,
 * what the caller said (as the bot was told it), what the bot said, how long the caller waited for
 * its answer (the turn latency of the agent metrics), the caller talking over the bot, a key sent to the bot, a tool the bot asked the flow for and the flow's answer, the
 * session's end with its outcome (`by` the bot's `end`, or ringflow's `hangup` with its reason),
 * and a bot that broke the protocol.
 */
export type AgentTurn =
  /** `protocol: 'audio'`: a bot of the audio protocol (its words are its own audio, played on the call's line). */
  | { readonly kind: 'connected'; readonly bot: string; readonly protocol?: 'audio' }
  | { readonly kind: 'unreachable'; readonly bot: string; readonly reason: string }
  | { readonly kind: 'caller'; readonly text: string }
  | { readonly kind: 'bot'; readonly text: string }
  /** How long the caller waited: from their stopping talking to the bot's first audio of its answer. */
  | { readonly kind: 'latency'; readonly ms: number }
  | { readonly kind: 'interrupted' }
  | { readonly kind: 'key'; readonly digit: string }
  | { readonly kind: 'tool'; readonly id: string; readonly name: string; readonly args?: unknown }
  | {
      readonly kind: 'toolResult';
      readonly id: string;
      readonly result?: unknown;
      readonly error?: string;
    }
  | {
      readonly kind: 'end';
      readonly outcome: string;
      readonly by: 'bot' | 'ringflow';
      readonly data?: unknown;
    }
  | { readonly kind: 'broken'; readonly error: string };

/**
 * How a call ended: the runtime's `status` and `by`, the one vocabulary of call ends (the `call
 * ended` log line, the metrics, a scenario's `end: { status, by }`).
 */
export type { CallEnd };

/** A flow as the page draws it (see describeFlows.ts). */
export interface FlowDescription {
  readonly name: string;
  readonly file: string;
  readonly graph: {
    readonly start: string;
    readonly states: readonly string[];
    readonly transitions: readonly {
      readonly from: string;
      readonly to: string;
      readonly labels: readonly string[];
    }[];
  };
  /** Each state's steps, with where they are written (`file:line:col`). */
  readonly states: Readonly<Record<string, readonly { readonly at: string; readonly step: unknown }[]>>;
  readonly error: string | null;
}

/** What one event did to a call's flow: the event, the state and the variables before and after. */
export interface FlowStep {
  readonly call: string;
  /** When (ms since the epoch, simulated time in `ringflow dev`). */
  readonly at: number;
  /** The event the call's machine took, as told: `ChannelDtmfReceived 1`, `after 60s`. */
  readonly event: string;
  /** The flow state before and after (the same when the event left the call where it was). */
  readonly from: string;
  readonly to: string;
  /**
   * Where the way taken starts on the diagram (a state changed only): `from` for a way of the
   * state itself, {@link ANY_STATE} for a flow-wide handler (`on: { hangup: done }`).
   */
  readonly via?: string;
  /** The variables the event changed, each before and after (absent: not set). */
  readonly vars: readonly { readonly name: string; readonly before?: unknown; readonly after?: unknown }[];
}

/** The source of the flow-wide handlers on the diagram (as flowGraph names it): "any state". */
export const ANY_STATE = '*';

/** The simulated time of `ringflow dev`, which the page pauses, steps and resumes. */
export interface ClockState {
  readonly paused: boolean;
  /** The simulated time now (ms since the epoch). */
  readonly now: number;
  /** Server events held for the flows while paused: each step gives them the oldest. */
  readonly waiting: number;
  /** When the next timer is due (a playback's end, a flow's timeout...), if one is set. */
  readonly nextDue: number | null;
}

/**
 * A sound a channel hears, started or stopped: one media of a playback (`sound:hello-world`,
 * `digits:12`, `tone:busy`), or the ringing a flow asks for (`tone:ring`). The page plays the
 * selected call's (see api/sound).
 */
export interface CallSound {
  /** The call it belongs to (a far end's sounds belong to the call that dialled it). */
  readonly call: string;
  readonly channel: string;
  /** The playback's id (`ring:<channel>` for ringing). */
  readonly id: string;
  readonly media: string;
  /** The sound files the media plays, in order (`digits/1`, `digits/2`); none for a tone. */
  readonly files: readonly string[];
  readonly language: string;
  readonly playing: boolean;
}

/** A message of the feed. */
export type FeedMessage =
  /**
   * First on every connection: whether it goes on from the last message the page had (a
   * reconnection to the same feed), or starts over (the page forgets what it knew).
   */
  | { readonly type: 'feed'; readonly resumed: boolean }
  | { readonly type: 'flows'; readonly flows: readonly FlowDescription[] }
  /** A call started (`at`), in the flow `flow`. */
  | { readonly type: 'call'; readonly id: string; readonly flow?: string; readonly at?: number }
  /**
   * A call entered `state`: from the state `from`, by the way that starts at `via` (`from`, or
   * {@link ANY_STATE}), on `event` (see {@link FlowStep}); none of them for the first state.
   */
  | {
      readonly type: 'state';
      readonly call: string;
      readonly state: string;
      readonly from?: string;
      readonly via?: string;
      readonly event?: string;
    }
  /** What one event did to a call's flow. */
  | { readonly type: 'step'; readonly step: FlowStep }
  /** A sound started or stopped on a channel (`ringflow dev` only). */
  | ({ readonly type: 'sound' } & CallSound)
  /** The simulated time paused, stepped or resumed (`ringflow dev` only). */
  | ({ readonly type: 'clock' } & ClockState)
  /** A call ended (`at`): `outcome` as the runtime says it, `end` as a scenario would. */
  | {
      readonly type: 'ended';
      readonly call: string;
      readonly outcome: string;
      readonly at?: number;
      readonly end?: CallEnd;
    }
  | { readonly type: 'timeline'; readonly entry: TimelineEntry }
  /** A far end a call's flow dialled (`call`): ringing, answered, or gone. */
  | {
      readonly type: 'farEnd';
      readonly id: string;
      readonly call?: string;
      readonly name?: string;
      readonly ringing?: boolean;
      readonly answered?: boolean;
      readonly gone?: boolean;
    };

/**
 * The call's line (`ringflow dev` only): a WebSocket at `api/line?call=<id>` that the page opens
 * for the selected call. The server sends, as binary messages, each 20 ms frame of application
 * audio the caller hears (a bot of the audio protocol speaking) as it plays on the simulated
 * line, in {@link LINE_SAMPLE_RATE} Hz signed 16-bit little-endian samples, and as text a
 * {@link LineMessage}. The page sends, as binary messages, the caller's microphone in 20 ms frames
 * of the same format (slin16, {@link LINE_FRAME_BYTES} bytes), which the simulator carries to the
 * media sockets of the caller's bridge (the bot hears the caller). A server-sent events feed is
 * text only and keeps a history; 50 frames a second each way are neither.
 */
export const LINE_PATH = 'api/line';
export const LINE_SAMPLE_RATE = 16_000;
export const LINE_FRAME_BYTES = 640;

/** A text message of the call's line: the bot's audio was cut short (FLUSH_MEDIA: stop it now). */
export type LineMessage = { readonly type: 'flush' };
