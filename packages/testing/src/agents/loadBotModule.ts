import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextBot } from '@ringflow/runtime';
import type { AudioBotFactory } from './AudioScenarioBot.ts';

/**
 * A bot module a scenario file names, read. The rule: its default export (or its export `bot`)
 * is a `TextBot`, for text relay steps; its export `audioBot` is an audio bot (a function given
 * `{ clock }` that returns an `AudioBot`), for `protocol: audio` steps. A module may export both.
 */
export interface BotModule {
  readonly path: string;
  readonly textBot?: TextBot;
  readonly audioBot?: AudioBotFactory;
}

const TYPESCRIPT = /\.[mc]?ts$/;

/**
 * A TypeScript module on a Node that runs none (Node 20; 22 before type stripping): compiled
 * with esbuild beside it (its imports resolve as the source's), imported, and the copy removed.
 * Not through a loader hook (tsx's): hooks run on a thread of their own, and every later
 * `import()` of the process (the runtime loads parts of itself when a session starts) would then
 * wait on real time, which virtual-time scenarios cannot.
 */
async function importTypeScript(path: string): Promise<Record<string, unknown>> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      'this Node runs no TypeScript (Node 22.18 and later do): install esbuild (npm install --save-dev esbuild) for ringflow to compile the bot, or write it as .mjs',
    );
  }
  const copy = join(dirname(path), `.${basename(path)}.${process.pid}.ringflow.mjs`);
  try {
    await esbuild.build({
      entryPoints: [path],
      outfile: copy,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    return (await import(pathToFileURL(copy).href)) as Record<string, unknown>;
  } catch (error) {
    const errors = (error as { errors?: { text: string }[] }).errors;
    throw errors?.length ? new Error(errors.map((e) => e.text).join('; ')) : error;
  } finally {
    await rm(copy, { force: true });
  }
}

async function importModule(path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !TYPESCRIPT.test(path))
      throw error;
    return importTypeScript(path);
  }
}

/**
 * Loads the bot module `file` (relative to the scenario file: `bot: ./bots/orders.mjs`,
 * `bot: ../examples/echo-audio-bot/echoAudioBot.ts`). Throws a sentence saying what is wrong.
 */
export async function loadBotModule(file: string, scenarioFile: string): Promise<BotModule> {
  const path = resolve(scenarioFile, '..', file);
  let module: Record<string, unknown>;
  try {
    module = await importModule(path);
  } catch (error) {
    throw new Error(`cannot load the bot module ${path}: ${(error as Error).message}`);
  }
  const text = module.default ?? module.bot;
  const audio = module.audioBot;
  if (text !== undefined && typeof text !== 'function')
    throw new Error(
      `the bot module ${path} exports a ${typeof text} as ${module.default !== undefined ? 'default' : 'bot'}: a text bot is a function (conversation) => { ... } (a TextBot)`,
    );
  if (audio !== undefined && typeof audio !== 'function')
    throw new Error(
      `the bot module ${path} exports a ${typeof audio} as audioBot: it is a function given { clock } that returns an AudioBot`,
    );
  if (text === undefined && audio === undefined)
    throw new Error(
      `the bot module ${path} exports no bot: export default (conversation) => { ... } (a TextBot, text relay), or export const audioBot = ({ clock }) => (conversation) => { ... } (an audio bot, protocol: audio)`,
    );
  return {
    path,
    ...(text !== undefined ? { textBot: text as TextBot } : {}),
    ...(audio !== undefined ? { audioBot: audio as AudioBotFactory } : {}),
  };
}
