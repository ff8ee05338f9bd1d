import type { FormatLangPair, Sound } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import { defaultSoundDurations } from './defaultSounds.ts';
import { characterFiles, digitFiles, numberFiles } from './sayFiles.ts';

/** A sound the catalogue knows. */
export interface SoundSpec {
  /** As played: `hello-world`, `digits/7`. */
  readonly id: string;
  readonly durationMs: number;
  /** Languages and formats it exists in; default: the catalogue's languages x formats. */
  readonly formats?: readonly FormatLangPair[];
  /** Transcript, shown as `text` when given. */
  readonly text?: string;
}

export interface SoundCatalogueOptions {
  /** Replaces the default core sounds. */
  readonly sounds?: readonly SoundSpec[];
  /** Added to (or replacing, by id) the core sounds. */
  readonly extraSounds?: readonly SoundSpec[];
  /** Languages of sounds without their own formats. Default as traced: en_US_f_Allison, en_US, en. */
  readonly languages?: readonly string[];
  /** Formats of sounds without their own formats. Default as traced: slin. */
  readonly formats?: readonly string[];
  /** Length of stored recordings, for `recording:` media (a RecordingStore fits). */
  readonly recordings?: { durationOf(name: string): number | undefined };
}

/**
 * How a media URI plays: for a set time, until stopped (tones), not at all (nothing to play: the
 * playback fails at once), or never finishing (an unknown scheme, which the traced server starts
 * and then neither plays nor ends).
 */
export type MediaTiming =
  | { readonly kind: 'timed'; readonly durationMs: number }
  | { readonly kind: 'endless' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unknownScheme' };

/**
 * The sounds of `/sounds` and the length of anything a playback can say, with the real server's
 * listing rules: `lang` and `format` filter both the sounds and their format lists, and a query
 * matching nothing answers 404 rather than an empty list.
 *
 * @example
 * const sounds = new SoundCatalogue({ extraSounds: [{ id: 'custom/welcome', durationMs: 2500 }] });
 * sounds.get('hello-world').formats[0]; // { language: 'en_US_f_Allison', format: 'slin' }
 * sounds.mediaTiming('number:42'); // { kind: 'timed', durationMs: 1693 }
 */
export class SoundCatalogue {
  readonly #sounds = new Map<string, SoundSpec & { readonly formats: readonly FormatLangPair[] }>();
  readonly #recordings: SoundCatalogueOptions['recordings'];

  constructor(options: SoundCatalogueOptions = {}) {
    const languages = options.languages ?? ['en_US_f_Allison', 'en_US', 'en'];
    const formats = options.formats ?? ['slin'];
    const everywhere = languages.flatMap((language) => formats.map((format) => ({ language, format })));
    const base: readonly SoundSpec[] =
      options.sounds ?? defaultSoundDurations.map(([id, durationMs]) => ({ id, durationMs }));
    for (const spec of [...base, ...(options.extraSounds ?? [])]) {
      if (!(spec.durationMs >= 0) || !Number.isFinite(spec.durationMs)) {
        throw new Error(
          `SoundCatalogue: sound '${spec.id}' needs a durationMs of 0 or more, got ${spec.durationMs}`,
        );
      }
      this.#sounds.set(spec.id, { ...spec, formats: spec.formats ?? everywhere });
    }
    this.#recordings = options.recordings;
  }

  /**
   * The sounds matching the filters (`GET /sounds?lang=&format=`), each listing only matching
   * formats; 404 `No sounds found that matched the query` when none match.
   */
  list(filter: { readonly lang?: string | undefined; readonly format?: string | undefined } = {}): Sound[] {
    const sounds: Sound[] = [];
    for (const spec of this.#sounds.values()) {
      const formats = spec.formats.filter(
        (f) =>
          (filter.lang === undefined || f.language === filter.lang) &&
          (filter.format === undefined || f.format === filter.format),
      );
      if (formats.length > 0) sounds.push(toSound(spec, formats));
    }
    if (sounds.length === 0) throw new SimError(404, 'No sounds found that matched the query');
    return sounds;
  }

  /** One sound (`GET /sounds/{id}`): 404 `Sound not found`. */
  get(id: string): Sound {
    const spec = this.#sounds.get(id);
    if (!spec) throw new SimError(404, 'Sound not found');
    return toSound(spec, spec.formats);
  }

  /**
   * How long a sound plays for a channel language, or undefined when the server would not find it.
   * Like the server, it falls back from a regional language (`fr_CA`) to its base (`fr`), then to `en`.
   */
  durationOf(id: string, language = 'en'): number | undefined {
    const spec = this.#sounds.get(id);
    if (!spec) return undefined;
    const wanted = [language, language.split('_')[0] ?? language, 'en'];
    return spec.formats.some((f) => wanted.includes(f.language)) ? spec.durationMs : undefined;
  }

  /**
   * How a media URI of a playback plays: `sound:`, `recording:`, `digits:`, `number:`,
   * `characters:` are timed from the catalogue (each file said in turn), `tone:` plays until
   * stopped.
   *
   * @example
   * sounds.mediaTiming('digits:12', 'en'); // { kind: 'timed', durationMs: 1655 }
   * sounds.mediaTiming('sound:no-such-file'); // { kind: 'missing' }
   */
  mediaTiming(uri: string, language = 'en'): MediaTiming {
    const colon = uri.indexOf(':');
    const scheme = colon < 0 ? '' : uri.slice(0, colon);
    const rest = uri.slice(colon + 1);
    switch (scheme) {
      case 'sound':
        return timed(this.durationOf(rest, language));
      case 'recording':
        return timed(this.#recordings?.durationOf(rest));
      case 'digits':
        return this.#say(digitFiles(rest), language);
      case 'characters':
        return this.#say(characterFiles(rest), language);
      case 'number': {
        // The server reads a leading integer (`%ld`): `42abc` says 42, `abc` fails.
        const match = /^\s*[+-]?\d+/.exec(rest);
        const files = match ? numberFiles(Number(match[0])) : undefined;
        return files ? this.#say(files, language) : { kind: 'missing' };
      }
      case 'tone':
        return { kind: 'endless' };
      default:
        return { kind: 'unknownScheme' };
    }
  }

  /** Plays the files that exist, one after the other (the server skips those it cannot find). */
  #say(files: readonly string[], language: string): MediaTiming {
    let total = 0;
    for (const file of files) total += this.durationOf(file, language) ?? 0;
    return { kind: 'timed', durationMs: total };
  }
}

function timed(durationMs: number | undefined): MediaTiming {
  return durationMs === undefined ? { kind: 'missing' } : { kind: 'timed', durationMs };
}

function toSound(spec: SoundSpec, formats: readonly FormatLangPair[]): Sound {
  const sound: Sound = { id: spec.id, formats: formats.map((f) => ({ ...f })) };
  if (spec.text !== undefined) sound.text = spec.text;
  return sound;
}
