import type { Clock } from '@ringflow/client';
import {
  type AgentServices,
  type AudioBotLink,
  type BotLink,
  createAgentServices,
  linkInProcessBot,
  SimulatedSpeechToText,
  SimulatedTextToSpeech,
  type TextBot,
} from '@ringflow/runtime';
import type { Simulator } from '@ringflow/simulator';
import { CALLER_WORD_MS } from '@ringflow/testing';
import { turnOfMessage } from './agentTurns.ts';
import type { AgentTurn } from './feedMessages.ts';

/**
 * The agent steps of `ringflow dev`: each call's services (the bot its step names, connected to
 * its `ws://` address, or run in process when the console was given a bot for that address; the
 * media socket connected in to the dev simulator over the wire, as on a server; simulated speech,
 * as `ringflow test` has it), every message between ringflow and the bot and each turn's latency
 * told (`told`) as a turn of the call (the feed's timeline, the recorder), and the caller's typed
 * words spoken as `say:` speaks them in a scenario: the simulated caller talks (300 ms a word, on
 * the console's clock: barge-in is real), then the simulated recogniser hears the words.
 *
 * @example
 * const agents = new DevAgents({ ariUrl: wire.url, driver: sim.driver, clock, told: (call, turn) => feed.turn(call, turn) });
 * consoleMachine(flow, {}, feed, recorder, undefined, (call) => agents.servicesFor(call));
 * agents.say('call-1', 'where is my order');
 */
export class DevAgents {
  private readonly recognisers = new Map<string, SimulatedSpeechToText>();

  constructor(
    private readonly options: {
      /** The dev simulator's ARI URL (media sockets are opened at its `/media/<id>`). */
      readonly ariUrl: string;
      readonly driver: Simulator['driver'];
      readonly clock: Clock;
      /** Told each turn of a call's agent step (the feed, the recorder). */
      readonly told: (call: string, turn: AgentTurn) => void;
      /** Bots run in process, by the address (or name) a step's `bot:` gives. */
      readonly bots?: Readonly<Record<string, TextBot>>;
    },
  ) {}

  /** The services of call `call`'s agent steps (one recogniser per call: the words typed for it). */
  servicesFor(call: string): AgentServices {
    const speechToText = new SimulatedSpeechToText();
    this.recognisers.set(call, speechToText);
    const { told, bots = {} } = this.options;
    const base = createAgentServices({
      ariUrl: this.options.ariUrl,
      speechToText,
      textToSpeech: new SimulatedTextToSpeech(),
      bots,
      // The call's own: its turn latencies are lines of its timeline.
      metrics: {
        turnLatency: (ms) => told(call, { kind: 'latency', ms }),
        interrupted: () => {},
        ended: () => {},
      },
    });
    const seen = (...exchange: Parameters<typeof turnOfMessage>) => {
      const turn = turnOfMessage(...exchange);
      if (turn) told(call, turn);
    };
    // The connection told: made, or refused (then the step ends unreachable).
    const connecting = async <L>(bot: string, connect: () => Promise<L>): Promise<L> => {
      try {
        const link = await connect();
        told(call, { kind: 'connected', bot });
        return link;
      } catch (error) {
        told(call, { kind: 'unreachable', bot, reason: (error as Error).message });
        throw error;
      }
    };
    const connectAudioBot = base.connectAudioBot;
    return {
      ...base,
      connectBot: async (bot, options) => {
        const inProcess = bots[bot];
        const link = await connecting(bot, async () =>
          inProcess ? linkInProcessBot(inProcess) : base.connectBot(bot, options),
        );
        return observed(link, seen);
      },
      // An audio bot's words are its own audio: its control messages are told (tools, its end,
      // interruptions, keys).
      ...(connectAudioBot
        ? {
            connectAudioBot: async (bot, options) =>
              observedAudio(await connecting(bot, () => connectAudioBot(bot, options)), seen),
          }
        : {}),
    };
  }

  /**
   * The caller of `call` says `text`: talks for 300 ms a word, then the agent step hears the
   * words. Throws when no agent step of the call is listening.
   */
  say(call: string, text: string): void {
    const recogniser = this.recognisers.get(call);
    if (!recogniser?.listening) throw new Error(`no agent step is listening on ${call}`);
    const words = text.split(/\s+/).filter((w) => w !== '').length;
    if (words === 0) throw new Error('text: give the words the caller says');
    const { driver, clock } = this.options;
    driver.startTalking(call);
    clock.setTimeout(() => {
      driver.stopTalking(call);
      recogniser.hear(text);
    }, words * CALLER_WORD_MS);
  }

  /** Call `call` ended: its words have nobody to hear them. */
  forget(call: string): void {
    this.recognisers.delete(call);
  }
}

/** The audio bot's link, whose every control message both ways is told to `seen` first. */
function observedAudio(
  link: AudioBotLink,
  seen: (...exchange: Parameters<typeof turnOfMessage>) => void,
): AudioBotLink {
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
function observed(link: BotLink, seen: (...exchange: Parameters<typeof turnOfMessage>) => void): BotLink {
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
