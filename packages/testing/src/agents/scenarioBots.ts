import type { TextBot } from '@ringflow/runtime';
import type { BotExpectation } from './botExpectation.ts';
import type { BotScript } from './BotScript.ts';
import { loadBotModule } from './loadBotModule.ts';
import type { ScenarioBot } from './ScenarioAgents.ts';

/** A scenario file's `bot:` as written: a script, `unreachable`, or a module path. */
type BotDocument = string | BotScript;

/** The bot modules a scenario file names (the file's and its scenarios'), loaded, by the text written. */
export async function scenarioBotModules(
  doc: { readonly bot?: unknown; readonly scenarios?: unknown },
  file: string,
): Promise<Map<string, TextBot | Error>> {
  const named = new Set<string>();
  const add = (bot: unknown) => {
    if (typeof bot === 'string' && bot !== 'unreachable') named.add(bot);
  };
  add(doc.bot);
  if (Array.isArray(doc.scenarios)) for (const s of doc.scenarios) add((s as { bot?: unknown } | null)?.bot);
  const loaded = new Map<string, TextBot | Error>();
  for (const name of named) {
    try {
      loaded.set(name, await loadBotModule(name, file));
    } catch (error) {
      loaded.set(name, error as Error);
    }
  }
  return loaded;
}

/** The scenario's bot from what the file wrote; a module that could not be loaded is a problem told at `bot`. */
export function readBot(
  doc: BotDocument,
  modules: ReadonlyMap<string, TextBot | Error>,
  problem: (message: string) => void,
): ScenarioBot | undefined {
  if (typeof doc !== 'string') return doc;
  if (doc === 'unreachable') return 'unreachable';
  const bot = modules.get(doc);
  if (bot === undefined || bot instanceof Error) {
    problem(bot?.message ?? `cannot load the bot module ${doc}`);
    return undefined;
  }
  return bot;
}

/** `expect: { bot: ... }` as the checks take it (`said` may be one text). */
export function readBotExpectation(doc: {
  readonly said?: string | readonly string[];
  readonly interrupted?: number;
  readonly tools?: readonly string[];
  readonly ended?: BotExpectation['ended'];
}): BotExpectation {
  return {
    ...(doc.said !== undefined ? { said: typeof doc.said === 'string' ? [doc.said] : doc.said } : {}),
    ...(doc.interrupted !== undefined ? { interrupted: doc.interrupted } : {}),
    ...(doc.tools !== undefined ? { tools: doc.tools } : {}),
    ...(doc.ended !== undefined ? { ended: doc.ended } : {}),
  };
}
