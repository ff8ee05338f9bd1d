import type { WebSocket } from 'ws';
import {
  AUDIO_BOT_PROTOCOL,
  type AudioBotMessage,
  type AudioRelayMessage,
  audioMessageProblem,
  MAX_AUDIO_MESSAGE_BYTES,
  parseAudioBotMessage,
  parseAudioRelayMessage,
} from './audioBotProtocol.ts';
import { bytesOf, openBotSocket, type ServedBot, serveBotSockets } from './botSocket.ts';

/** ringflow's end of a connection to an audio bot: control messages and audio both ways. */
export interface AudioBotLink {
  send(message: AudioRelayMessage): void;
  /** The caller's audio (one frame). */
  sendAudio(data: Uint8Array): void;
  /** Each control message of the bot, read (`error` when it broke the protocol). */
  onMessage(handler: (message: AudioBotMessage | { readonly error: string }) => void): void;
  /** The bot's audio (`error` when a message broke the protocol: odd bytes, too large). */
  onAudio(handler: (data: Uint8Array | { readonly error: string }) => void): void;
  /** Called once, when either side closed. */
  onClose(handler: () => void): void;
  close(): void;
}

/** An audio bot's end of the conversation. */
export interface AudioBotConversation {
  send(message: AudioBotMessage): void;
  /** Audio for the caller: whole samples, at most 65535 bytes a message, as fast as it is made. */
  sendAudio(data: Uint8Array): void;
  onMessage(handler: (message: AudioRelayMessage) => void): void;
  /** The caller's audio, a frame at a time. */
  onAudio(handler: (data: Uint8Array) => void): void;
  onClose(handler: () => void): void;
  /** Ends the connection (without `end`: ringflow ends the step as `failed`). */
  close(): void;
}

/**
 * An audio bot that runs in this process, called once per session with its end of the
 * conversation; served over a WebSocket with {@link serveAudioBot} it is the same.
 * @example const echo: AudioBot = (c) => c.onAudio((frame) => c.sendAudio(frame));
 */
export type AudioBot = (conversation: AudioBotConversation) => void;

/**
 * Connects to an audio bot in this process. Control messages cross as JSON text read by the
 * protocol's readers and audio as copies, each delivered on a later microtask as a socket would.
 */
export function linkInProcessAudioBot(bot: AudioBot): AudioBotLink {
  let open = true;
  let closing = false;
  const handlers = {
    toBot: [] as ((m: AudioRelayMessage) => void)[],
    audioToBot: [] as ((d: Uint8Array) => void)[],
    toRelay: [] as ((m: AudioBotMessage | { error: string }) => void)[],
    audioToRelay: [] as ((d: Uint8Array | { error: string }) => void)[],
    closes: [] as (() => void)[],
  };
  // As on a socket, what was sent before the close arrives before it.
  const close = () => {
    if (closing) return;
    closing = true;
    queueMicrotask(() => {
      open = false;
      for (const handler of handlers.closes.splice(0)) handler();
    });
  };
  const deliver = <T>(to: ((m: T) => void)[], message: T | undefined) => {
    if (closing) return;
    queueMicrotask(() => {
      if (!open || message === undefined) return;
      for (const handler of to) handler(message);
    });
  };
  bot({
    send: (message) => deliver(handlers.toRelay, parseAudioBotMessage(JSON.stringify(message))),
    sendAudio: (data) => {
      const problem = audioMessageProblem(data);
      deliver(handlers.audioToRelay, problem !== undefined ? { error: problem } : data.slice());
    },
    onMessage: (handler) => void handlers.toBot.push(handler),
    onAudio: (handler) => void handlers.audioToBot.push(handler),
    onClose: (handler) => void handlers.closes.push(handler),
    close,
  });
  return {
    send: (message) => deliver(handlers.toBot, parseAudioRelayMessage(JSON.stringify(message))),
    sendAudio: (data) => deliver(handlers.audioToBot, data.slice()),
    onMessage: (handler) => void handlers.toRelay.push(handler),
    onAudio: (handler) => void handlers.audioToRelay.push(handler),
    onClose: (handler) => void handlers.closes.push(handler),
    close,
  };
}

function sendJson(ws: WebSocket, message: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function sendBytes(ws: WebSocket, data: Uint8Array): void {
  if (ws.readyState === ws.OPEN) ws.send(data, { binary: true });
}

/**
 * Connects to an audio bot at a ws:// or wss:// URL (subprotocol `ringflow-audio.1`). Rejects
 * when refused, unreachable, or when `signal` aborts first. A binary message larger than
 * 65535 bytes closes the connection (1009), which ends the step as `failed`.
 * @example const link = await connectWebSocketAudioBot('ws://127.0.0.1:9200/echo', { signal });
 */
export async function connectWebSocketAudioBot(
  url: string,
  options: { readonly signal: AbortSignal },
): Promise<AudioBotLink> {
  const ws = await openBotSocket(url, AUDIO_BOT_PROTOCOL, {
    ...options,
    maxPayload: MAX_AUDIO_MESSAGE_BYTES,
  });
  return {
    send: (message) => sendJson(ws, message),
    sendAudio: (data) => sendBytes(ws, data),
    onMessage: (handler) =>
      ws.on('message', (data, isBinary) => {
        if (!isBinary) handler(parseAudioBotMessage(data.toString()));
      }),
    onAudio: (handler) =>
      ws.on('message', (data, isBinary) => {
        if (!isBinary) return;
        const bytes = bytesOf(data);
        const problem = audioMessageProblem(bytes);
        handler(problem !== undefined ? { error: problem } : bytes);
      }),
    onClose: (handler) => ws.once('close', () => handler()),
    close: () => ws.close(1000),
  };
}

/**
 * Serves an in-process audio bot over WebSocket (subprotocol `ringflow-audio.1`), one
 * conversation per connection. Binds `host` (default 127.0.0.1).
 * @example const served = await serveAudioBot(echoBot(), { port: 9200, path: '/echo' });
 */
export function serveAudioBot(
  bot: AudioBot,
  options: { readonly port?: number; readonly host?: string; readonly path?: string } = {},
): Promise<ServedBot> {
  return serveBotSockets(AUDIO_BOT_PROTOCOL, { ...options, maxPayload: MAX_AUDIO_MESSAGE_BYTES }, (ws) => {
    bot({
      send: (message) => sendJson(ws, message),
      sendAudio: (data) => sendBytes(ws, data),
      onMessage: (handler) =>
        ws.on('message', (data, isBinary) => {
          const message = isBinary ? undefined : parseAudioRelayMessage(data.toString());
          if (message) handler(message);
        }),
      onAudio: (handler) =>
        ws.on('message', (data, isBinary) => {
          if (isBinary) handler(bytesOf(data));
        }),
      onClose: (handler) => ws.once('close', () => handler()),
      close: () => ws.close(1000),
    });
  });
}
