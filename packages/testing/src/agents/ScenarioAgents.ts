import type { VirtualClock } from '@ringflow/client';
import {
  type AgentMetrics,
  type AgentServices,
  type BotLink,
  connectWebSocketBot,
  heldMediaLink,
  linkInProcessBot,
  SimulatedSpeechToText,
  SimulatedTextToSpeech,
  type TextBot,
  wordsInSlin,
} from '@ringflow/runtime';
import { createMediaPipePair, type Simulator } from '@ringflow/simulator';
import { type BotScript, type ScriptSurprise, scriptedBot } from './BotScript.ts';
import { type BotExchange, describeExchange } from './BotExchange.ts';
import { CALLER_WORD_MS } from './callerWords.ts';

/**
 * The bot of a scenario's agent steps: a script (`{ greet, turns }`), a bot of your own running in
 * process (a `TextBot`, such as the demo bot), `{ url }` (a bot served on a real WebSocket, such
 * as `serveTextBot` gives: over the wire, wait for its answers in real time with `until`), or
 * `unreachable` (connecting fails, as when nobody listens at the bot's address).
 */
export type ScenarioBot = BotScript | TextBot | 'unreachable' | { readonly url: string };

export { CALLER_WORD_MS };

/** What the caller heard of the bot: one entry per stretch of its audio, read back as words. */
export interface HeardFromBot {
  /** Scenario time (ms) the stretch started. */
  readonly at: number;
  readonly text: string;
  /** The caller talked over it and the rest was dropped (barge-in). */
  readonly flushed: boolean;
}

/** What the scenario gives this helper: its world and its timeline. */
interface ScenarioWorld {
  readonly simulator: Simulator;
  readonly clock: VirtualClock;
  elapsed(): number;
  note(text: string, call?: string): void;
}

/**
 * The agent steps' side of a scenario, in virtual time: each call's agent services (the
 * scenario's bot in process, media sockets as in-process pipes of the simulator, simulated
 * speech), the caller's words (`say`), and what happened between caller, bot and flow
 * (`exchanges`, `heard`), for expectations. Reached as `scenario.agents`.
 */
export class ScenarioAgents {
  readonly #world: ScenarioWorld;
  readonly #bot: ScenarioBot | undefined;
  readonly #metrics: AgentMetrics;
  readonly #recognisers = new Map<string, SimulatedSpeechToText>();
  readonly #exchanges: BotExchange[] = [];
  /** What scripted bots noticed that their script did not expect. */
  readonly surprises: ScriptSurprise[] = [];

  constructor(world: ScenarioWorld, bot: ScenarioBot | undefined, metrics: AgentMetrics) {
    this.#world = world;
    this.#bot = bot;
    this.#metrics = metrics;
  }

  /** The agent metrics of the scenario's application (turn latency, interruptions, end reasons). */
  get metrics(): AgentMetrics {
    return this.#metrics;
  }

  /** The services of one call's agent steps (`call` is the scenario's name of the call). */
  servicesFor(call: string): AgentServices {
    const recogniser = new SimulatedSpeechToText();
    this.#recognisers.set(call, recogniser);
    const sim = this.#world.simulator;
    return {
      connectBot: async (address, options) => this.#connect(call, address, options.signal),
      connectMedia: async (connectionId) => {
        const accept = sim.media.acceptIncoming(connectionId);
        if (typeof accept !== 'function')
          throw new Error(`the server refused the media socket ${connectionId} (${accept.status})`);
        const { server, app } = createMediaPipePair();
        const link = heldMediaLink(app);
        accept(server);
        return link;
      },
      speechToText: recogniser,
      textToSpeech: new SimulatedTextToSpeech(),
      metrics: this.#metrics,
    };
  }

  async #connect(call: string, address: string, signal: AbortSignal): Promise<BotLink> {
    const bot = this.#bot;
    if (bot === undefined || bot === 'unreachable')
      throw new Error(
        bot === undefined
          ? `the scenario has no bot (give bot: { turns: [...] } or a bot module) for ${address}`
          : 'connection refused',
      );
    const link =
      'url' in bot
        ? await connectWebSocketBot(bot.url, { signal })
        : linkInProcessBot(typeof bot === 'function' ? bot : scriptedBot(bot, this.surprises));
    const record = (exchange: BotExchange) => {
      const entry = exchange;
      this.#exchanges.push(entry);
      const text = describeExchange(entry);
      if (text !== undefined) this.#world.note(text, call);
    };
    return {
      send: (message) => {
        record({ from: 'ringflow', message, at: this.#world.elapsed(), call });
        link.send(message);
      },
      onMessage: (handler) =>
        link.onMessage((message) => {
          record({ from: 'bot', message, at: this.#world.elapsed(), call });
          handler(message);
        }),
      onClose: (handler) => link.onClose(handler),
      close: () => link.close(),
    };
  }

  /**
   * The caller says `text`: they talk for a time proportional to its words (the bot hears them
   * talking: barge-in is real), then the recogniser hears the words.
   * @example await scenario.agents.say(scenario.call('caller'), 'where is my order');
   */
  async say(call: { readonly name: string; readonly channelId: string }, text: string): Promise<void> {
    const words = text.split(/\s+/).filter((w) => w !== '').length;
    const { simulator, clock } = this.#world;
    this.#world.note(`caller says "${text}"`, call.name);
    simulator.driver.startTalking(call.channelId);
    await clock.advance(Math.max(1, words) * CALLER_WORD_MS);
    simulator.driver.stopTalking(call.channelId);
    const recogniser = this.#recognisers.get(call.name);
    if (recogniser?.listening) recogniser.hear(text);
    else this.#world.note('(no agent step was listening)', call.name);
    await clock.advance(0);
  }

  /** What the caller on `channelId` heard of bots so far, as words. */
  heard(channelId: string): HeardFromBot[] {
    const t0 = this.#world.clock.now() - this.#world.elapsed();
    return this.#world.simulator.driver
      .heard(channelId)
      .filter((h) => h.format === 'slin16')
      .map((h) => ({ at: h.startedAt - t0, text: wordsInSlin(h.audio, 640), flushed: h.flushed }));
  }

  /** The messages between ringflow and the bots, oldest first (of one call, when named). */
  exchanges(call?: string): readonly BotExchange[] {
    return call === undefined ? [...this.#exchanges] : this.#exchanges.filter((e) => e.call === call);
  }
}
