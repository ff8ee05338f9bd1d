import type { Clock } from '@ringflow/client';
import {
  type AgentServices,
  type AudioBot,
  createAgentServices,
  SimulatedSpeechToText,
  SimulatedTextToSpeech,
  type TextBot,
} from '@ringflow/runtime';
import type { Simulator } from '@ringflow/simulator';
import { CALLER_WORD_MS } from '@ringflow/testing/scenario-files';
import type { AgentTurn } from './feedMessages.ts';
import { observeAgentServices } from './observedAgents.ts';

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
      /** Bots of the audio protocol run in process, likewise (steps with `protocol: audio`). */
      readonly audioBots?: Readonly<Record<string, AudioBot>>;
    },
  ) {}

  /** The services of call `call`'s agent steps (one recogniser per call: the words typed for it). */
  servicesFor(call: string): AgentServices {
    const speechToText = new SimulatedSpeechToText();
    this.recognisers.set(call, speechToText);
    const base = createAgentServices({
      ariUrl: this.options.ariUrl,
      speechToText,
      textToSpeech: new SimulatedTextToSpeech(),
    });
    return observeAgentServices(base, call, this.options.told, this.options.bots, this.options.audioBots);
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
