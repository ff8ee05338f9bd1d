import { type AddressInfo, WebSocket, WebSocketServer } from 'ws';
import type { BotConversation, BotLink, TextBot } from './BotLink.ts';
import { parseBotMessage, parseRelayMessage, TEXT_RELAY_PROTOCOL } from './textRelayProtocol.ts';

/**
 * Connects to a text relay bot at a ws:// or wss:// URL (subprotocol `ringflow-text-relay.1`).
 * Rejects when refused, unreachable, or when `signal` aborts first (the step's connect limit).
 * @example const link = await connectWebSocketBot('ws://127.0.0.1:9100/order-status', { signal });
 */
export function connectWebSocketBot(
  url: string,
  options: { readonly signal: AbortSignal },
): Promise<BotLink> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [TEXT_RELAY_PROTOCOL], { perMessageDeflate: false });
    const abort = () => {
      ws.terminate();
      reject(options.signal.reason ?? new Error('aborted'));
    };
    if (options.signal.aborted) return abort();
    options.signal.addEventListener('abort', abort, { once: true });
    ws.once('error', (error) => {
      options.signal.removeEventListener('abort', abort);
      reject(error);
    });
    ws.once('open', () => {
      options.signal.removeEventListener('abort', abort);
      ws.on('error', () => ws.terminate());
      resolve({
        send: (message) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
        },
        onMessage: (handler) =>
          ws.on('message', (data, isBinary) => {
            if (!isBinary) handler(parseBotMessage(data.toString()));
          }),
        onClose: (handler) => ws.once('close', () => handler()),
        close: () => ws.close(1000),
      });
    });
  });
}

/** A bot served on a WebSocket port: its address, and how to stop it. */
export interface ServedBot {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves an in-process bot over WebSocket, one conversation per connection (what a bot written
 * in another language does too: docs/agents.md). Binds `host` (default 127.0.0.1).
 * @example const served = await serveTextBot(orderStatusBot, { port: 9100, path: '/order-status' });
 */
export async function serveTextBot(
  bot: TextBot,
  options: { readonly port?: number; readonly host?: string; readonly path?: string } = {},
): Promise<ServedBot> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/';
  const wss = new WebSocketServer({
    host,
    port: options.port ?? 0,
    path,
    handleProtocols: (offered) => (offered.has(TEXT_RELAY_PROTOCOL) ? TEXT_RELAY_PROTOCOL : false),
  });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('connection', (ws) => {
    ws.on('error', () => ws.terminate());
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
  const address = wss.address() as AddressInfo;
  return {
    url: `ws://${host}:${address.port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
