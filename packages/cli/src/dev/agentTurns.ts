import type { AudioBotMessage, AudioRelayMessage, BotMessage, RelayMessage } from '@ringflow/runtime';
import type { AgentTurn } from './feedMessages.ts';

const json = (value: unknown) => (value === undefined ? '' : ` ${JSON.stringify(value)}`);

/**
 * The turn a message between ringflow and a bot tells (the text relay or the audio protocol,
 * docs/agents.md), or undefined for one not worth a line (`setup` is told as `connected` by
 * whoever connected; a caller's partial words; an audio bot's marks). An audio bot's `clear` (it
 * dropped its own audio: the caller talked over it) is an interruption.
 *
 * @example turnOfMessage('bot', { type: 'say', text: 'Hello' }) // { kind: 'bot', text: 'Hello' }
 */
export function turnOfMessage(
  ...[from, message]:
    | [from: 'ringflow', message: RelayMessage | AudioRelayMessage]
    | [from: 'bot', message: BotMessage | AudioBotMessage | { readonly error: string }]
): AgentTurn | undefined {
  if (from === 'bot') {
    if ('error' in message) return { kind: 'broken', error: message.error };
    const m = message;
    switch (m.type) {
      case 'say':
        return { kind: 'bot', text: m.text };
      case 'clear':
        return { kind: 'interrupted' };
      case 'tool':
        return { kind: 'tool', id: m.id, name: m.name, ...(m.args !== undefined ? { args: m.args } : {}) };
      case 'end':
        return {
          kind: 'end',
          outcome: m.result,
          by: 'bot',
          ...(m.data !== undefined ? { data: m.data } : {}),
        };
    }
    return undefined;
  }
  const m = message;
  switch (m.type) {
    case 'caller':
      return m.final ? { kind: 'caller', text: m.text } : undefined;
    case 'interrupted':
      return { kind: 'interrupted' };
    case 'key':
      return { kind: 'key', digit: m.digit };
    case 'toolResult':
      return {
        kind: 'toolResult',
        id: m.id,
        ...(m.error !== undefined ? { error: m.error } : { result: m.result }),
      };
    case 'hangup':
      return { kind: 'end', outcome: m.reason, by: 'ringflow' };
    case 'setup':
    case 'mark':
      return undefined;
  }
}

/** A turn as a line of the timeline reads (searched by the page, shown beside its look). */
export function textOfTurn(turn: AgentTurn): string {
  switch (turn.kind) {
    case 'connected':
      return `bot connected: ${turn.bot}${turn.protocol === 'audio' ? ' (audio protocol)' : ''}`;
    case 'unreachable':
      return `bot unreachable: ${turn.bot} (${turn.reason})`;
    case 'caller':
      return `caller said "${turn.text}"`;
    case 'bot':
      return `bot said "${turn.text}"`;
    case 'latency':
      return `turn latency ${turn.ms < 1000 ? `${Math.round(turn.ms)} ms` : `${(turn.ms / 1000).toFixed(2)} s`} (the caller stopped → the bot's first audio)`;
    case 'interrupted':
      return 'interrupted: the caller talked over the bot (its words were dropped)';
    case 'key':
      return `key ${turn.digit} sent to the bot`;
    case 'tool':
      return `bot asked for tool ${turn.name}${json(turn.args)}`;
    case 'toolResult':
      return turn.error !== undefined
        ? `flow answered ${turn.id}: error ${turn.error}`
        : `flow answered ${turn.id}:${json(turn.result)}`;
    case 'end':
      return turn.by === 'bot'
        ? `session ended by the bot: ${turn.outcome}${json(turn.data)}`
        : `session ended: ${turn.outcome}`;
    case 'broken':
      return `bot broke the protocol: ${turn.error}`;
  }
}
