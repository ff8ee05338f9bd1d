/**
 * The tones a phone makes, synthesised: the DTMF pair of each key, and the call-progress tones
 * (`tone:ring`, `tone:busy`...) by their usual frequencies and cadences, North American by
 * default, European (CEPT) for the tone zones of Europe.
 */

/** The low and high frequencies (Hz) of each key's DTMF tone. */
export const DTMF: Readonly<Record<string, readonly [number, number]>> = {
  '1': [697, 1209],
  '2': [697, 1336],
  '3': [697, 1477],
  A: [697, 1633],
  '4': [770, 1209],
  '5': [770, 1336],
  '6': [770, 1477],
  B: [770, 1633],
  '7': [852, 1209],
  '8': [852, 1336],
  '9': [852, 1477],
  C: [852, 1633],
  '*': [941, 1209],
  '0': [941, 1336],
  '#': [941, 1477],
  D: [941, 1633],
};

/** A call-progress tone: its frequencies, and its cadence (on, off in ms; none: continuous). */
export interface Tone {
  readonly frequencies: readonly number[];
  readonly cadence?: readonly [on: number, off: number];
}

const NORTH_AMERICA: Readonly<Record<string, Tone>> = {
  ring: { frequencies: [440, 480], cadence: [2000, 4000] },
  busy: { frequencies: [480, 620], cadence: [500, 500] },
  congestion: { frequencies: [480, 620], cadence: [250, 250] },
  dial: { frequencies: [350, 440] },
  info: { frequencies: [950, 1400, 1800], cadence: [330, 1000] },
};

const EUROPE: Readonly<Record<string, Tone>> = {
  ring: { frequencies: [425], cadence: [1000, 4000] },
  busy: { frequencies: [425], cadence: [500, 500] },
  congestion: { frequencies: [425], cadence: [250, 250] },
  dial: { frequencies: [425] },
  info: { frequencies: [950, 1400, 1800], cadence: [330, 1000] },
};

/** Tone zones (a server's indications.conf names) that use the European tones. */
const EUROPEAN_ZONES = new Set([
  'at',
  'be',
  'ch',
  'de',
  'dk',
  'es',
  'fi',
  'fr',
  'gr',
  'it',
  'nl',
  'no',
  'pl',
  'pt',
  'se',
  'uk',
]);

/**
 * The tone a `tone:` media plays (`tone:ring`, `tone:busy;tonezone=fr`), or undefined for one this
 * does not know (a tone given by frequencies, `tone:425/500,0/500`, is played as written: its first
 * part's frequencies on, its second's length off).
 *
 * @example toneOf('tone:busy') // { frequencies: [480, 620], cadence: [500, 500] }
 */
export function toneOf(media: string): Tone | undefined {
  const [name = '', ...options] = media.replace(/^tone:/, '').split(';');
  const zone = options.find((o) => o.startsWith('tonezone='))?.slice('tonezone='.length) ?? 'us';
  const known = (EUROPEAN_ZONES.has(zone) ? EUROPE : NORTH_AMERICA)[name];
  if (known) return known;
  // Written as indications are: `f1+f2/on,f/off`.
  const parts = name.split(',').map((part) => /^!?([\d+*]+)\/(\d+)$/.exec(part));
  const first = parts[0];
  if (!first) return undefined;
  const frequencies = first[1]!
    .split(/[+*]/)
    .map(Number)
    .filter((f) => f > 0);
  const off = parts[1] ? Number(parts[1][2]) : 0;
  return { frequencies, ...(off > 0 ? { cadence: [Number(first[2]), off] as const } : {}) };
}

/**
 * Music on hold (`moh:<class>`), synthesised: the server's music files are not the page's, so a
 * soft four-note figure stands for them (C5 E5 G5 E5, each `HOLD_NOTE_MS`), looped.
 */
export const HOLD_MUSIC: readonly number[] = [523.25, 659.25, 783.99, 659.25];
export const HOLD_NOTE_MS = 450;
