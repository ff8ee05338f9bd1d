import type { Clock } from '@ringflow/client';
import type { AudioBot, TextBot } from '@ringflow/runtime';

/** What a scenario gives an audio bot it runs: the scenario's virtual clock, for the bot's timers. */
export interface BotEnvironment {
  readonly clock: Clock;
}

/**
 * How a bot module (or a test) gives an audio bot: a function of the scenario's environment that
 * returns the `AudioBot` (one function per conversation). An audio bot times the caller's pauses
 * (silence is not sent), so it needs the scenario's clock to run in virtual time.
 * @example export const audioBot = ({ clock }) => (c) => c.onAudio((frame) => c.sendAudio(frame));
 */
export type AudioBotFactory = (environment: BotEnvironment) => AudioBot;

/**
 * A scenario's bot of the audio protocol (`protocol: audio` steps): what a bot module exports as
 * `audioBot`; `textBot` serves the flow's text relay steps, when the module has one too.
 * @example testCalls(flow, { bot: { audioBot: ({ clock }) => echoAudioBot({ clock }) } })
 */
export interface AudioScenarioBot {
  readonly audioBot: AudioBotFactory;
  readonly textBot?: TextBot;
}

export function isAudioScenarioBot(bot: unknown): bot is AudioScenarioBot {
  return typeof bot === 'object' && bot !== null && 'audioBot' in bot;
}

/**
 * The audio bot of a factory, checked: a factory that is itself an `AudioBot` (it returns
 * nothing) gets a sentence saying how to write it.
 */
export function audioBotOf(factory: AudioBotFactory, environment: BotEnvironment): AudioBot {
  const bot: unknown = factory(environment);
  if (typeof bot !== 'function')
    throw new Error(
      `audioBot gave ${bot === undefined ? 'nothing' : typeof bot}: it is a function given { clock } that returns the AudioBot, e.g. export const audioBot = ({ clock }) => (conversation) => { ... }`,
    );
  return bot as AudioBot;
}
