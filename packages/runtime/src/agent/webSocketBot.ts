import type { BotConversation, BotLink, TextBot } from './BotLink.ts';
import { openBotSocket, type ServedBot, serveBotSockets } from './botSocket.ts';
import { parseBotMessage, parseRelayMessage, TEXT_RELAY_PROTOCOL } from './textRelayProtocol.ts';

export type { ServedBot } from './botSocket.ts';

/**
 * Connects to a text relay bot at a ws:// or wss:// URL (subprotocol `ringflow-text-relay.1`).
 * Rejects when refused, unreachable, or when `signal` aborts first (the step's connect limit).
 * @example const link = await connectWebSocketBot('ws://127.0.0.1:9100/order-status', { signal });
 */
export async function connectWebSocketBot(
  url: string,
  options: { readonly signal: AbortSignal },
): Promise<BotLink> {
  const ws = await openBotSocket(url, TEXT_RELAY_PROTOCOL, options);
  return {
    send: (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
    onMessage: (handler) =>
      ws.on('message', (data, isBinary) => {
        if (!isBinary) handler(parseBotMessage(data.toString()));
      }),
    onClose: (handler) => ws.once('close', () => handler()),
    close: () => ws.close(1000),
  };
}

/**
 * Serves an in-process bot over WebSocket, one conversation per connection (what a bot written
 * in another language does too: docs/agents.md). Binds `host` (default 127.0.0.1).
 * @example const served = await serveTextBot(orderStatusBot, { port: 9100, path: '/order-status' });
 */
export function serveTextBot(
  bot: TextBot,
  options: { readonly port?: number; readonly host?: string; readonly path?: string } = {},
): Promise<ServedBot> {
  return serveBotSockets(TEXT_RELAY_PROTOCOL, options, (ws) => {
    const conversation: BotConversation = {
      send: (message) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
      },
      onMessage: (handler) =>
        ws.on('message', (data, isBinary) => {
          const message = isBinary ? undefined : parseRelayMessage(data.toString());
          if (message) handler(message);
        }),
      onClose: (handler) => ws.once('close', () => handler()),
      close: () => ws.close(1000),
    };
    bot(conversation);
  });
}
