import { mediaSocketUrl, openMediaConnection } from '@ringflow/client';
import type { SpeechToText, TextToSpeech } from '../speech/SpeechProviders.ts';
import type { AgentMetricsSink, AgentServices } from './AgentServices.ts';
import { linkInProcessBot, type TextBot } from './BotLink.ts';
import { connectWebSocketBot } from './webSocketBot.ts';

/** What an application gives its agent steps. */
export interface AgentServicesOptions {
  /** The server's ARI URL (`http://127.0.0.1:8088/ari`): media sockets are opened at its `/media/<id>`. */
  readonly ariUrl: string;
  readonly speechToText: SpeechToText;
  readonly textToSpeech: TextToSpeech;
  /** Bots run in this process, by the name a step's `bot:` gives; URLs are connected to. */
  readonly bots?: Readonly<Record<string, TextBot>>;
  /** Usually the application's: `app.metrics.agents`. */
  readonly metrics?: AgentMetricsSink;
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
      if (/^wss?:\/\//.test(bot)) return connectWebSocketBot(bot, { signal });
      const inProcess = options.bots?.[bot];
      if (!inProcess)
        throw new Error(
          `no bot named ${bot}: give a ws:// URL, or one of the application's bots (${Object.keys(options.bots ?? {}).join(', ') || 'none'})`,
        );
      return linkInProcessBot(inProcess);
    },
    // The client keeps what comes before the relay listens (MEDIA_START).
    connectMedia: (connectionId) =>
      openMediaConnection({ url: mediaSocketUrl(options.ariUrl, connectionId) }),
    speechToText: options.speechToText,
    textToSpeech: options.textToSpeech,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
}
