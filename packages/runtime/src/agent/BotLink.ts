import type { BotMessage, RelayMessage } from './textRelayProtocol.ts';
import { parseBotMessage, parseRelayMessage } from './textRelayProtocol.ts';

/**
 * ringflow's end of a connection to a text relay bot (a WebSocket, or a bot in the same process):
 * messages of the protocol both ways, and its close.
 */
export interface BotLink {
  send(message: RelayMessage): void;
  /** Each message of the bot, read (`error` when it broke the protocol). */
  onMessage(handler: (message: BotMessage | { readonly error: string }) => void): void;
  /** Called once, when either side closed. */
  onClose(handler: () => void): void;
  close(): void;
}

/** A bot's end of the conversation: what a bot running in this process is given. */
export interface BotConversation {
  send(message: BotMessage): void;
  onMessage(handler: (message: RelayMessage) => void): void;
  onClose(handler: () => void): void;
  /** Ends the connection (without `end`: ringflow ends the step as `failed`). */
  close(): void;
}

/**
 * A text relay bot that runs in this process: called once per session with its end of the
 * conversation. The demo bot is one; served over a WebSocket it is the same.
 * @example const echo: TextBot = (c) => c.onMessage((m) => m.type === 'caller' && m.final && c.send({ type: 'say', text: m.text }));
 */
export type TextBot = (conversation: BotConversation) => void;

/**
 * Connects to a bot in this process. Messages cross as JSON text, read by the protocol's own
 * readers, each delivered on a later microtask as a socket would: an in-process bot is held to
 * the wire format.
 */
export function linkInProcessBot(bot: TextBot): BotLink {
  let open = true;
  const toBot: ((m: RelayMessage) => void)[] = [];
  const toRelay: ((m: BotMessage | { error: string }) => void)[] = [];
  const closes: (() => void)[] = [];
  const close = () => {
    if (!open) return;
    open = false;
    queueMicrotask(() => {
      for (const handler of closes.splice(0)) handler();
    });
  };
  const deliver = <T>(handlers: ((m: T) => void)[], message: T | undefined) => {
    queueMicrotask(() => {
      if (!open || message === undefined) return;
      for (const handler of handlers) handler(message);
    });
  };
  bot({
    send: (message) => deliver(toRelay, parseBotMessage(JSON.stringify(message))),
    onMessage: (handler) => void toBot.push(handler),
    onClose: (handler) => void closes.push(handler),
    close,
  });
  return {
    send: (message) => deliver(toBot, parseRelayMessage(JSON.stringify(message))),
    onMessage: (handler) => void toRelay.push(handler),
    onClose: (handler) => void closes.push(handler),
    close,
  };
}
