import type { VirtualClock } from '@ringflow/client';
import {
  type AgentMetrics,
  type AgentServices,
  type AudioBot,
  type AudioBotLink,
  type BotLink,
  connectWebSocketAudioBot,
  connectWebSocketBot,
  heldMediaLink,
  linkInProcessAudioBot,
  linkInProcessBot,
  SimulatedSpeechToText,
  SimulatedTextToSpeech,
  type TextBot,
  wordsInSlin,
} from '@ringflow/runtime';
import { createMediaPipePair, type Simulator } from '@ringflow/simulator';
import { type AudioScenarioBot, audioBotOf, isAudioScenarioBot } from './AudioScenarioBot.ts';
import { type BotScript, type ScriptSurprise, scriptedBot, sessionOfScript } from './BotScript.ts';
import { type BotExchange, describeExchange } from './BotExchange.ts';
import { CALLER_WORD_MS } from './callerWords.ts';
import { recordAudioBotLink } from './recordAudioBotLink.ts';

/**
 * The bot of a scenario's agent steps: a script (`{ greet, turns }`, text relay), a bot of your
 * own running in process (a `TextBot`, such as the demo bot; `{ audioBot }` for `protocol: audio`
 * steps, such as a bot module's exports), `{ url }` (a bot served on a real WebSocket, such as
 * `serveTextBot` or `serveAudioBot` gives, reached with the step's protocol: over the wire, wait
 * for its answers in real time with `until`), or `unreachable` (connecting fails, as when nobody
 * listens at the bot's address).
 */
export type ScenarioBot = BotScript | TextBot | AudioScenarioBot | 'unreachable' | { readonly url: string };

export { CALLER_WORD_MS };

/** What the caller heard of the bot: one entry per stretch of its audio, read back as words. */
export interface HeardFromBot {
  /** Scenario time (ms) the stretch started. */
  readonly at: number;
  readonly text: string;
  /** How long it played (20 ms frames). */
  readonly ms: number;
  /** The caller talked over it and the rest was dropped (barge-in). */
  readonly flushed: boolean;
}

/** What the scenario gives this helper: its world and its timeline. */
interface ScenarioWorld {
  readonly simulator: Simulator;
  readonly clock: VirtualClock;
  elapsed(): number;
  note(text: string, call?: string): void;
  /** Lets scenario time pass (virtual, or following the wall with `realTime`). */
  passTime(ms: number): Promise<void>;
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
  /** The calls whose agent step speaks with an audio bot now. */
  readonly #audioCalls = new Set<string>();
  #audioBot: AudioBot | undefined;
  /** How many sessions each call opened with a scripted bot (`sessions:` are played in order). */
  readonly #scriptedSessions = new Map<string, number>();
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
      connectAudioBot: async (address, options) => this.#connectAudio(call, address, options.signal),
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

  #record(exchange: BotExchange): void {
    this.#exchanges.push(exchange);
    const text = describeExchange(exchange);
    if (text !== undefined) this.#world.note(text, exchange.call);
  }

  /** The scenario's bot, or why this step cannot be connected to it (thrown: the step's outcome is unreachable). */
  #botFor(call: string, address: string, protocol: 'text' | 'audio'): Exclude<ScenarioBot, 'unreachable'> {
    const bot = this.#bot;
    if (bot === undefined || bot === 'unreachable')
      throw new Error(
        bot === undefined
          ? `the scenario has no bot (give bot: { turns: [...] } or a bot module) for ${address}`
          : 'connection refused',
      );
    const audio = isAudioScenarioBot(bot);
    if ('url' in bot || (protocol === 'audio') === audio || (audio && protocol === 'text' && bot.textBot))
      return bot;
    const why =
      protocol === 'audio'
        ? "the scenario's bot speaks the text relay, and this agent step speaks protocol: audio (give an audio bot: { audioBot })"
        : "the scenario's bot is an audio bot (audioBot), and this agent step speaks the text relay (give a TextBot)";
    this.#world.note(why, call);
    throw new Error(why);
  }

  /** The script of the call's next session with a scripted bot (thrown: unreachable, as scripted). */
  #scripted(call: string, script: BotScript): TextBot {
    const index = this.#scriptedSessions.get(call) ?? 0;
    this.#scriptedSessions.set(call, index + 1);
    const session = sessionOfScript(script, index);
    if (session === 'unreachable') throw new Error('connection refused');
    if (session === undefined) {
      const message = `the call opened agent session ${index + 1}, and the script has ${script.sessions?.length ?? 0} (the bot stays silent)`;
      this.surprises.push({ turn: 0, message });
      this.#world.note(message, call);
    }
    return scriptedBot(session ?? {}, this.surprises);
  }

  async #connect(call: string, address: string, signal: AbortSignal): Promise<BotLink> {
    const bot = this.#botFor(call, address, 'text');
    const link =
      'url' in bot
        ? await connectWebSocketBot(bot.url, { signal })
        : linkInProcessBot(
            typeof bot === 'function'
              ? bot
              : isAudioScenarioBot(bot)
                ? bot.textBot!
                : this.#scripted(call, bot),
          );
    const record = (exchange: BotExchange) => this.#record(exchange);
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

  async #connectAudio(call: string, address: string, signal: AbortSignal): Promise<AudioBotLink> {
    const bot = this.#botFor(call, address, 'audio');
    let link: AudioBotLink;
    if ('url' in bot) link = await connectWebSocketAudioBot(bot.url, { signal });
    else {
      // One audio bot per scenario, made on first use with the scenario's clock.
      try {
        this.#audioBot ??= audioBotOf((bot as AudioScenarioBot).audioBot, { clock: this.#world.clock });
      } catch (error) {
        this.#world.note((error as Error).message, call);
        throw error;
      }
      link = linkInProcessAudioBot(this.#audioBot);
    }
    this.#audioCalls.add(call);
    link.onClose(() => this.#audioCalls.delete(call));
    return recordAudioBotLink(link, {
      exchange: (exchange) => this.#record({ ...exchange, at: this.#world.elapsed(), call } as BotExchange),
      botAudio: (ms) => this.#world.note(`bot sends ${Math.round(ms)} ms of audio`, call),
    });
  }

  /**
   * The caller says `text`: they talk for a time proportional to its words (the bot hears them
   * talking: barge-in is real), then the recogniser hears the words. With an audio bot there is
   * no recogniser: the bot hears the caller's audio (the simulator's voice, a tone) that long.
   * @example await scenario.agents.say(scenario.call('caller'), 'where is my order');
   */
  async say(call: { readonly name: string; readonly channelId: string }, text: string): Promise<void> {
    const words = text.split(/\s+/).filter((w) => w !== '').length;
    const { simulator, clock } = this.#world;
    const ms = Math.max(1, words) * CALLER_WORD_MS;
    const audio = this.#audioCalls.has(call.name);
    this.#world.note(
      audio ? `caller says "${text}" (${ms} ms of audio to the audio bot)` : `caller says "${text}"`,
      call.name,
    );
    simulator.driver.startTalking(call.channelId);
    await this.#world.passTime(ms);
    simulator.driver.stopTalking(call.channelId);
    const recogniser = this.#recognisers.get(call.name);
    if (recogniser?.listening) recogniser.hear(text);
    else if (!audio) this.#world.note('(no agent step was listening)', call.name);
    await clock.advance(0);
  }

  /** What the caller on `channelId` heard of bots so far, as words. */
  heard(channelId: string): HeardFromBot[] {
    const t0 = this.#world.clock.now() - this.#world.elapsed();
    return this.#world.simulator.driver
      .heard(channelId)
      .filter((h) => h.format === 'slin16')
      .map((h) => ({
        at: h.startedAt - t0,
        text: wordsInSlin(h.audio, 640),
        ms: h.frames * 20,
        flushed: h.flushed,
      }));
  }

  /** The messages between ringflow and the bots, oldest first (of one call, when named). */
  exchanges(call?: string): readonly BotExchange[] {
    return call === undefined ? [...this.#exchanges] : this.#exchanges.filter((e) => e.call === call);
  }
}
