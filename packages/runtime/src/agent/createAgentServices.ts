import { mediaSocketUrl, type MediaConnection, webSocketMediaConnection } from '@ringflow/client';
import { WebSocket } from 'ws';
import type { SpeechToText, TextToSpeech } from '../speech/SpeechProviders.ts';
import type { AgentMetricsSink, AgentServices } from './AgentServices.ts';
import { linkInProcessBot, type TextBot } from './BotLink.ts';
import { heldMediaLink } from './heldMediaLink.ts';
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

/** Opens a media WebSocket; the messages that come before the relay listens are kept for it. */
function openMediaSocket(url: string): Promise<MediaConnection> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['media'], { perMessageDeflate: false, handshakeTimeout: 5000 });
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => {
      reject(new Error(`the server answered ${response.statusCode} to the media socket ${url}`));
      ws.terminate();
    });
    // Wrapped before it opens, so that MEDIA_START cannot come before anyone keeps it.
    const held = heldMediaLink(webSocketMediaConnection(ws));
    ws.once('open', () => resolve(held));
  });
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
    connectMedia: (connectionId) => openMediaSocket(mediaSocketUrl(options.ariUrl, connectionId)),
    speechToText: options.speechToText,
    textToSpeech: options.textToSpeech,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
}
