import type { AudioBotMessage, AudioRelayMessage, BotMessage, RelayMessage } from '@ringflow/runtime';

/**
 * One message between ringflow and a bot in a scenario: the text relay's, or the control
 * messages of the audio protocol (its audio is not an exchange: the caller's frames and the bot's
 * audio are counted, and told on the timeline a stretch at a time).
 */
export type BotExchange = { readonly at: number; readonly call: string } & (
  | { readonly from: 'ringflow'; readonly message: RelayMessage | AudioRelayMessage }
  | { readonly from: 'bot'; readonly message: BotMessage | AudioBotMessage | { readonly error: string } }
);

function json(value: unknown): string {
  return value === undefined ? '' : ` ${JSON.stringify(value)}`;
}

/** The exchange as a line of the scenario's timeline (undefined for what is not worth one). */
export function describeExchange(exchange: BotExchange): string | undefined {
  if (exchange.from === 'bot') {
    const m = exchange.message;
    if ('error' in m) return `bot broke the protocol: ${m.error}`;
    switch (m.type) {
      case 'say':
        return `bot says "${m.text}"`;
      case 'tool':
        return `bot asks for tool ${m.name}${json(m.args)}`;
      case 'end':
        return `bot ends: ${m.result}${json(m.data)}`;
      case 'mark':
        return `bot asks for mark ${m.name}`;
      case 'clear':
        return 'bot clears its audio not yet heard';
    }
  }
  const m = exchange.message;
  switch (m.type) {
    case 'setup':
      return 'bot connected (setup sent)';
    case 'caller':
      return m.final ? `bot is told the caller said "${m.text}"` : undefined;
    case 'interrupted':
      return 'caller talked over the bot: its audio was flushed';
    case 'key':
      return `key ${m.digit} sent to the bot`;
    case 'toolResult':
      return m.error !== undefined
        ? `flow answered tool ${m.id}: error ${m.error}`
        : `flow answered tool ${m.id}:${json(m.result)}`;
    case 'hangup':
      return `bot told the session ended (${m.reason})`;
    case 'mark':
      return m.played
        ? `mark ${m.name} played: the caller heard the bot's audio to it`
        : `mark ${m.name} dropped`;
  }
}
