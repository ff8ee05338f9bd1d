import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { characterFiles, digitFiles, numberFiles } from '@ringflow/simulator';

/**
 * Where a server keeps its sounds (`<dir>/<language>/<name>.<format>`), in the order they are
 * looked for: a source install's data directory, then the Debian and Ubuntu packages'
 * (asterisk-core-sounds-*), then a source install under /usr/local.
 */
export const SERVER_SOUND_FOLDERS: readonly string[] = [
  '/var/lib/asterisk/sounds',
  '/usr/share/asterisk/sounds',
  '/usr/local/share/asterisk/sounds',
];

/**
 * The formats the console sends to the browser, best first, by file extension: WAV is decoded by
 * the browser; the raw formats (16-bit linear at 16 or 8 kHz, G.711 µ-law and A-law at 8 kHz) by
 * the page. GSM, G.722 and G.729 files are not played.
 */
export const PLAYABLE_FORMATS: readonly string[] = [
  'wav',
  'sln16',
  'sln',
  'slin',
  'ulaw',
  'ul',
  'alaw',
  'al',
];

/** A sound's name as a media URI names it (`hello-world`, `digits/1`, `acme/welcome`): no `..`, no root. */
const SOUND_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;
/** A language folder: `en`, `fr`, `en_US`, `en_US_f_Allison`. */
const LANGUAGE = /^[a-z]{2,3}(_[A-Za-z0-9]+)*$/;

/** A sound file found, and its format (its extension). */
export interface SoundFile {
  readonly path: string;
  readonly format: string;
}

/**
 * The files a media URI plays, in order: `sound:hello-world` one, `digits:12` `digits/1` and
 * `digits/2`, `number:42` and `characters:ab` as a server says them; none for the other schemes
 * (`tone:` is synthesised by the page, `recording:` is not a sound file).
 *
 * @example filesOfMedia('digits:1#') // ['digits/1', 'digits/pound']
 */
export function filesOfMedia(media: string): string[] {
  const colon = media.indexOf(':');
  const scheme = media.slice(0, colon);
  const rest = media.slice(colon + 1);
  switch (scheme) {
    case 'sound':
      return [rest];
    case 'digits':
      return digitFiles(rest);
    case 'characters':
      return characterFiles(rest);
    case 'number':
      return numberFiles(Number(rest)) ?? [];
    default:
      return [];
  }
}

/**
 * A server-style sounds folder the console plays prompts from. Only files inside it are ever
 * read: names and languages are checked against what a media URI may say (no `..`, no absolute
 * path), and the path built from them must stay inside the folder.
 *
 * @example
 * const folder = SoundFolder.find(options.sounds); // --sounds, or a server's folder on this machine
 * folder?.file('hello-world', 'en_US'); // { path: '/usr/share/asterisk/sounds/en/hello-world.wav', format: 'wav' }
 */
export class SoundFolder {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /**
   * The folder given (`--sounds`: it must exist), or the first server folder found on this
   * machine, or none.
   */
  static find(given?: string, candidates: readonly string[] = SERVER_SOUND_FOLDERS): SoundFolder | undefined {
    if (given !== undefined) {
      if (!existsSync(given) || !statSync(given).isDirectory())
        throw new Error(
          `--sounds ${given}: no such folder (give a server's sounds folder, e.g. /usr/share/asterisk/sounds)`,
        );
      return new SoundFolder(given);
    }
    const found = candidates.find((dir) => existsSync(dir) && statSync(dir).isDirectory());
    return found === undefined ? undefined : new SoundFolder(found);
  }

  /**
   * The best playable file of sound `name` in `language`, as a server looks for it: the language
   * (`fr_CA`), its base (`fr`), then `en`, then the folder's root; undefined when none is there,
   * or when the name or the language is not one a media URI may give.
   */
  file(name: string, language = 'en'): SoundFile | undefined {
    if (!SOUND_NAME.test(name) || name.split('/').some((part) => part === '..' || part === '.'))
      return undefined;
    if (!LANGUAGE.test(language)) return undefined;
    const languages = [...new Set([language, language.split('_')[0] ?? language, 'en'])];
    for (const folder of [...languages, ''])
      for (const format of PLAYABLE_FORMATS) {
        const path = resolve(this.dir, folder, `${name}.${format}`);
        if (!path.startsWith(this.dir + sep)) return undefined;
        if (existsSync(path) && statSync(path).isFile()) return { path, format };
      }
    return undefined;
  }

  /** Where a file of the folder is, for messages. */
  toString(): string {
    return join(this.dir, '<language>', '<name>.<format>');
  }
}
