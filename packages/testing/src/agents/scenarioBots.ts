import { type Duration, parseDuration } from '@ringflow/dsl';
import type { AgentStepProtocol } from './agentStepProtocols.ts';
import type { BotExpectation } from './botExpectation.ts';
import type { BotScript } from './BotScript.ts';
import { type BotModule, loadBotModule } from './loadBotModule.ts';
import type { ScenarioBot } from './ScenarioAgents.ts';

/** A scenario file's `bot:` as written: a script, `{ url }`, `unreachable`, or a module path. */
type BotDocument = string | (BotScript & { readonly url?: string });

/** The bot modules a scenario file names (the file's and its scenarios'), loaded, by the text written. */
export async function scenarioBotModules(
  doc: { readonly bot?: unknown; readonly scenarios?: unknown },
  file: string,
): Promise<Map<string, BotModule | Error>> {
  const named = new Set<string>();
  const add = (bot: unknown) => {
    if (typeof bot === 'string' && bot !== 'unreachable') named.add(bot);
  };
  add(doc.bot);
  if (Array.isArray(doc.scenarios)) for (const s of doc.scenarios) add((s as { bot?: unknown } | null)?.bot);
  const loaded = new Map<string, BotModule | Error>();
  for (const name of named) {
    try {
      loaded.set(name, await loadBotModule(name, file));
    } catch (error) {
      loaded.set(name, error as Error);
    }
  }
  return loaded;
}

/** Why the bot cannot serve the flow's agent step of the other protocol (undefined: it can). */
function misfit(doc: BotDocument, bot: BotModule | undefined, step: AgentStepProtocol): string | undefined {
  const speaks = step.protocol === 'audio' ? 'protocol: audio' : 'the text relay (protocol: text)';
  if (bot === undefined)
    return step.protocol === 'audio'
      ? `a scripted bot ({ greet, turns }) speaks the text relay, but the agent step at ${step.place} speaks protocol: audio: name a module exporting audioBot (a function given { clock } that returns an AudioBot), or unreachable`
      : undefined;
  if (step.protocol === 'audio' && bot.audioBot === undefined)
    return `the bot module ${doc} exports a text bot only (default), but the agent step at ${step.place} speaks ${speaks}: export audioBot, a function given { clock } that returns an AudioBot`;
  if (step.protocol === 'text' && bot.textBot === undefined)
    return `the bot module ${doc} exports an audio bot only (audioBot), but the agent step at ${step.place} speaks ${speaks}: export default a TextBot as well, or give the step protocol: audio`;
  return undefined;
}

/**
 * The scenario's bot from what the file wrote; a module that could not be loaded, or a bot that
 * does not speak the protocol of one of the flow's agent steps, is a problem told at `bot`.
 */
export function readBot(
  doc: BotDocument,
  modules: ReadonlyMap<string, BotModule | Error>,
  steps: readonly AgentStepProtocol[],
  problem: (message: string) => void,
): ScenarioBot | undefined {
  if (doc === 'unreachable') return 'unreachable';
  if (typeof doc !== 'string' && doc.url !== undefined) {
    if (doc.greet === undefined && doc.turns === undefined && doc.sessions === undefined)
      return { url: doc.url };
    problem(
      'bot: url is a bot served on a WebSocket, greet and turns (or sessions) a scripted bot: give one or the other',
    );
    return undefined;
  }
  if (
    typeof doc !== 'string' &&
    doc.sessions !== undefined &&
    (doc.greet !== undefined || doc.turns !== undefined)
  ) {
    problem(
      'bot: sessions scripts each session, greet and turns every session alike: give sessions, or greet and turns',
    );
    return undefined;
  }
  const module = typeof doc === 'string' ? modules.get(doc) : undefined;
  if (typeof doc === 'string' && (module === undefined || module instanceof Error)) {
    problem(module?.message ?? `cannot load the bot module ${doc}`);
    return undefined;
  }
  const bot = module as BotModule | undefined;
  for (const step of steps) {
    const why = misfit(doc, bot, step);
    if (why !== undefined) {
      problem(why);
      return undefined;
    }
  }
  if (typeof doc !== 'string') return doc;
  if (bot!.audioBot !== undefined)
    return { audioBot: bot!.audioBot, ...(bot!.textBot ? { textBot: bot!.textBot } : {}) };
  return bot!.textBot!;
}

/** `expect: { bot: ... }` as the checks take it (`said` may be one text). */
export function readBotExpectation(doc: {
  readonly said?: string | readonly string[];
  readonly interrupted?: number;
  readonly tools?: readonly string[];
  readonly ended?: BotExpectation['ended'];
  readonly heard?: { readonly atLeast?: Duration; readonly atMost?: Duration };
  readonly marks?: { readonly played?: readonly string[]; readonly dropped?: readonly string[] };
}): BotExpectation {
  return {
    ...(doc.said !== undefined ? { said: typeof doc.said === 'string' ? [doc.said] : doc.said } : {}),
    ...(doc.interrupted !== undefined ? { interrupted: doc.interrupted } : {}),
    ...(doc.tools !== undefined ? { tools: doc.tools } : {}),
    ...(doc.ended !== undefined ? { ended: doc.ended } : {}),
    ...(doc.heard !== undefined
      ? {
          heard: {
            ...(doc.heard.atLeast !== undefined ? { atLeastMs: parseDuration(doc.heard.atLeast)! } : {}),
            ...(doc.heard.atMost !== undefined ? { atMostMs: parseDuration(doc.heard.atMost)! } : {}),
          },
        }
      : {}),
    ...(doc.marks !== undefined ? { marks: doc.marks } : {}),
  };
}
