import type { BridgesApi, ChannelsApi, Clock } from '@ringflow/client';
import type { SpeechToText, TextToSpeech } from '../speech/SpeechProviders.ts';
import type { AudioBotLink } from './AudioBotLink.ts';
import type { BotLink } from './BotLink.ts';
import type { MediaConnector } from './MediaLink.ts';

/** What an agent session reports to the application's metrics (`AgentMetrics` implements it). */
export interface AgentMetricsSink {
  /** From the caller stopping to the bot's first audio of its answer. */
  turnLatency(ms: number): void;
  /** The caller talked over the bot and its audio was flushed. */
  interrupted(): void;
  /** A session ended, by outcome (handoff, done, failed, unreachable, botSilent, callerSilent, timeout, key, hungUp). */
  ended(outcome: string): void;
}

/**
 * What the agent step connects to, given once per application (or per call by a test): how to
 * reach bots, how to open media sockets, the speech providers of the text relay, and metrics.
 */
export interface AgentServices {
  /**
   * Opens a connection to the bot the step names (`bot:` a ws:// URL, or a name the application
   * maps to a bot in process). Rejects when the bot cannot be reached; `signal` aborts on the
   * step's connect timeout.
   */
  connectBot(bot: string, options: { readonly signal: AbortSignal }): Promise<BotLink>;
  /**
   * The same for a bot of the audio protocol (`protocol: audio`); without it such steps end
   * with `failed`.
   */
  connectAudioBot?(bot: string, options: { readonly signal: AbortSignal }): Promise<AudioBotLink>;
  /** Opens the media socket of an external media channel (`connection_type=server`). */
  readonly connectMedia: MediaConnector;
  /** The text relay's speech providers (the audio protocol needs none). */
  readonly speechToText?: SpeechToText;
  readonly textToSpeech?: TextToSpeech;
  readonly metrics?: AgentMetricsSink;
}

/** The REST operations an agent session makes (a client's, or a call's tracked API, fits). */
export interface AgentAri {
  readonly channels: Pick<ChannelsApi, 'externalMedia' | 'hangup'>;
  readonly bridges: Pick<BridgesApi, 'createWithId' | 'addChannel' | 'destroy'>;
}

/** The time limits of a session, in ms. */
export interface AgentLimits {
  /** The bot must accept the connection within this. */
  readonly connectMs: number;
  /** The bot must answer the caller's words (say, tool or end) within this. */
  readonly botSilenceMs: number;
  /** The caller must start talking within this once the bot has finished. */
  readonly callerSilenceMs: number;
  /** The whole session. */
  readonly sessionMs: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  connectMs: 5_000,
  botSilenceMs: 8_000,
  callerSilenceMs: 15_000,
  sessionMs: 600_000,
};

/** How ringflow talks with a bot: the text relay, or the audio protocol (docs/agents.md). */
export const AGENT_PROTOCOLS = ['text', 'audio'] as const;
export type AgentProtocol = (typeof AGENT_PROTOCOLS)[number];

/** How one agent session runs (the step's parameters, evaluated). */
export interface AgentSettings {
  readonly bot: string;
  readonly protocol: AgentProtocol;
  readonly limits: AgentLimits;
  /** Keys that end the session (outcome `key`); other keys go to the bot when `keysToBot`. */
  readonly endKeys: string;
  readonly keysToBot: boolean;
  /**
   * The caller's speech (ringflow's voice-activity detector) stops the bot's audio (FLUSH_MEDIA).
   * An audio bot may also stop its audio itself (`clear`), whatever this says.
   */
  readonly bargeIn: boolean;
  /** Sent to the bot in `setup`. */
  readonly context: Readonly<Record<string, unknown>>;
  readonly language?: string;
}

/** The call an agent session is for. */
export interface AgentCall {
  readonly channelId: string;
  readonly caller?: { readonly number: string; readonly name: string };
  readonly extension?: string;
  readonly language?: string;
}

/** The input of the agent session machine (`agentMachine`). */
export interface AgentInput {
  readonly call: AgentCall;
  readonly ari: AgentAri;
  readonly application: string;
  readonly clock: Clock;
  /** Picks (and owns, for the call) the ids of the bridge and the media channel. */
  newId(kind: 'channel' | 'bridge'): string;
  readonly services: AgentServices;
  readonly settings: AgentSettings;
}
