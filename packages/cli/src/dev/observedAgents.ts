import {
  type AgentServices,
  type AudioBot,
  type AudioBotLink,
  type BotLink,
  linkInProcessAudioBot,
  linkInProcessBot,
  type TextBot,
} from '@ringflow/runtime';
import { turnOfMessage } from './agentTurns.ts';
import type { AgentTurn } from './feedMessages.ts';

type Seen = (...exchange: Parameters<typeof turnOfMessage>) => void;

/**
 * A call's agent services whose every exchange with the bot is told as a turn of the call
 * (`told`): the connection made or refused, each message both ways worth a line, and each turn's
 * latency (still counted by `base`'s metrics). What `ringflow dev` and the live view of
 * `ringflow run --http` show on a call's timeline. `bots` (text relay) and `audioBots` (audio
 * protocol) answer the addresses they name in process (the console's own bots) instead of
 * `base.connectBot` and `base.connectAudioBot`.
 *
 * @example consoleMachine(flow, {}, feed, recorder, undefined, (call) => observeAgentServices(agents, call, told));
 */
export function observeAgentServices(
  base: AgentServices,
  call: string,
  told: (call: string, turn: AgentTurn) => void,
  bots: Readonly<Record<string, TextBot>> = {},
  audioBots: Readonly<Record<string, AudioBot>> = {},
): AgentServices {
  const seen: Seen = (...exchange) => {
    const turn = turnOfMessage(...exchange);
    if (turn) told(call, turn);
  };
  // The connection told: made, or refused (then the step ends unreachable).
  const connecting = async <L>(bot: string, connect: () => Promise<L>, audio = false): Promise<L> => {
    try {
      const link = await connect();
      told(call, { kind: 'connected', bot, ...(audio ? { protocol: 'audio' as const } : {}) });
      return link;
    } catch (error) {
      told(call, { kind: 'unreachable', bot, reason: (error as Error).message });
      throw error;
    }
  };
  const { connectAudioBot, metrics } = base;
  return {
    ...base,
    // The call's turn latencies are lines of its timeline, and still the application's metrics.
    metrics: {
      turnLatency: (ms) => {
        metrics?.turnLatency(ms);
        told(call, { kind: 'latency', ms });
      },
      interrupted: () => metrics?.interrupted(),
      ended: (outcome) => metrics?.ended(outcome),
    },
    connectBot: async (bot, options) => {
      const inProcess = bots[bot];
      const link = await connecting(bot, async () =>
        inProcess ? linkInProcessBot(inProcess) : base.connectBot(bot, options),
      );
      return observed(link, seen);
    },
    // An audio bot's words are its own audio: its control messages are told (tools, its end,
    // interruptions, keys).
    ...(connectAudioBot || Object.keys(audioBots).length > 0
      ? {
          connectAudioBot: async (bot, options) => {
            const inProcess = audioBots[bot];
            const connect = async () => {
              if (inProcess) return linkInProcessAudioBot(inProcess);
              if (!connectAudioBot) throw new Error(`no audio bot ${bot} in this console`);
              return connectAudioBot(bot, options);
            };
            return observedAudio(await connecting(bot, connect, true), seen);
          },
        }
      : {}),
  };
}

/** The audio bot's link, whose every control message both ways is told to `seen` first. */
function observedAudio(link: AudioBotLink, seen: Seen): AudioBotLink {
  return {
    send: (message) => {
      seen('ringflow', message);
      link.send(message);
    },
    sendAudio: (data) => link.sendAudio(data),
    onMessage: (handler) =>
      link.onMessage((message) => {
        seen('bot', message);
        handler(message);
      }),
    onAudio: (handler) => link.onAudio(handler),
    onClose: (handler) => link.onClose(handler),
    close: () => link.close(),
  };
}

/** The link, whose every message both ways is told to `seen` first. */
function observed(link: BotLink, seen: Seen): BotLink {
  return {
    send: (message) => {
      seen('ringflow', message);
      link.send(message);
    },
    onMessage: (handler) =>
      link.onMessage((message) => {
        seen('bot', message);
        handler(message);
      }),
    onClose: (handler) => link.onClose(handler),
    close: () => link.close(),
  };
}
