import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextBot } from '@ringflow/runtime';

/**
 * The bot a scenario file names by module (`bot: ./bots/orders.mjs`, relative to the file): its
 * default export, or its export `bot`, a `TextBot`. Throws a sentence saying what is wrong.
 */
export async function loadBotModule(file: string, scenarioFile: string): Promise<TextBot> {
  const path = resolve(scenarioFile, '..', file);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`cannot load the bot module ${path}: ${(error as Error).message}`);
  }
  const bot = module.default ?? module.bot;
  if (typeof bot !== 'function')
    throw new Error(
      `the bot module ${path} exports no bot: export default (conversation) => { ... } (a TextBot)`,
    );
  return bot as TextBot;
}
