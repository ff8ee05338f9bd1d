import { mediaSocketUrl, openMediaConnection } from '@ringflow/client';
import type { SpeechToText, TextToSpeech } from '../speech/SpeechProviders.ts';
import type { AgentMetricsSink, AgentServices } from './AgentServices.ts';
import { type AudioBot, connectWebSocketAudioBot, linkInProcessAudioBot } from './AudioBotLink.ts';
import { linkInProcessBot, type TextBot } from './BotLink.ts';
import { connectWebSocketBot } from './webSocketBot.ts';

/** What an application gives its agent steps. */
export interface AgentServicesOptions {
  /** The server's ARI URL (`http://127.0.0.1:8088/ari`): media sockets are opened at its `/media/<id>`. */
  readonly ariUrl: string;
  /** The text relay's speech providers; a flow whose bots all speak the audio protocol needs none. */
  readonly speechToText?: SpeechToText;
  readonly textToSpeech?: TextToSpeech;
  /** Text relay bots run in this process, by the name a step's `bot:` gives; URLs are connected to. */
  readonly bots?: Readonly<Record<string, TextBot>>;
  /** Audio bots run in this process, by name (steps with `protocol: audio`). */
  readonly audioBots?: Readonly<Record<string, AudioBot>>;
  /** Usually the application's: `app.metrics.agents`. */
  readonly metrics?: AgentMetricsSink;
}

const isUrl = (bot: string) => /^wss?:\/\//.test(bot);

function noBotNamed(bot: string, names: Readonly<Record<string, unknown>> | undefined, kind: string): Error {
  return new Error(
    `no ${kind} named ${bot}: give a ws:// URL, or one of the application's ${kind}s (${Object.keys(names ?? {}).join(', ') || 'none'})`,
  );
}

/**
 * The agent steps' services of an application on one server: bots by URL or by name, media
 * sockets connected in to the server, the speech providers and the metrics.
 * @example
 * const agents = createAgentServices({ ariUrl: 'http://127.0.0.1:8088/ari', speechToText, textToSpeech, bots: { 'order-status': orderStatusBot() } });
 */
export function createAgentServices(options: AgentServicesOptions): AgentServices {
  return {
    connectBot: async (bot, { signal }) => {
      if (isUrl(bot)) return connectWebSocketBot(bot, { signal });
      const inProcess = options.bots?.[bot];
      if (!inProcess) throw noBotNamed(bot, options.bots, 'bot');
      return linkInProcessBot(inProcess);
    },
    connectAudioBot: async (bot, { signal }) => {
      if (isUrl(bot)) return connectWebSocketAudioBot(bot, { signal });
      const inProcess = options.audioBots?.[bot];
      if (!inProcess) throw noBotNamed(bot, options.audioBots, 'audio bot');
      return linkInProcessAudioBot(inProcess);
    },
    // The client keeps what comes before the relay listens (MEDIA_START).
    connectMedia: (connectionId) =>
      openMediaConnection({ url: mediaSocketUrl(options.ariUrl, connectionId) }),
    ...(options.speechToText ? { speechToText: options.speechToText } : {}),
    ...(options.textToSpeech ? { textToSpeech: options.textToSpeech } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
}
