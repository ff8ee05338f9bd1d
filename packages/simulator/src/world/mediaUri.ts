import type { WorldServices } from './WorldServices.ts';

/** How a media URI plays: for a length of time, until stopped (tones), not at all (missing file), or never reports (unknown scheme). */
export type MediaPlan =
  | { readonly kind: 'timed'; readonly ms: number }
  | { readonly kind: 'endless' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unknown-scheme' };

/** Length of one spoken element when the sound catalogue does not know it. */
const FALLBACK_WORD_MS = 700;

function soundMs(services: WorldServices, sound: string, language: string): number {
  return services.sounds.durationMs(sound, language) ?? FALLBACK_WORD_MS;
}

/** Sound files the real server says a number with (`42` -> `digits/40`, `digits/2`). */
export function numberSounds(n: number): string[] {
  if (!Number.isFinite(n)) return [];
  if (n < 0) return ['digits/minus', ...numberSounds(-n)];
  const out: string[] = [];
  let rest = Math.floor(n);
  if (rest === 0) return ['digits/0'];
  for (const [unit, word] of [
    [1_000_000, 'digits/million'],
    [1000, 'digits/thousand'],
  ] as const) {
    if (rest >= unit) {
      out.push(...numberSounds(Math.floor(rest / unit)), word);
      rest %= unit;
    }
  }
  if (rest >= 100) {
    out.push(`digits/${Math.floor(rest / 100)}`, 'digits/hundred');
    rest %= 100;
  }
  if (rest >= 20) {
    out.push(`digits/${Math.floor(rest / 10) * 10}`);
    rest %= 10;
  }
  if (rest > 0) out.push(`digits/${rest}`);
  return out;
}

const digitSound: Readonly<Record<string, string>> = {
  '*': 'digits/star',
  '#': 'digits/pound',
  '-': 'digits/dash',
};

/**
 * Decides how a media URI plays: `sound:` and `recording:` for their stored length, `digits:`,
 * `number:` and `characters:` for the sum of their spoken elements, `tone:` until stopped.
 *
 * @example
 * planMedia(services, 'sound:hello-world', 'en') // { kind: 'timed', ms: 2600 }
 */
export function planMedia(services: WorldServices, uri: string, language: string): MediaPlan {
  const colon = uri.indexOf(':');
  const scheme = colon < 0 ? '' : uri.slice(0, colon);
  const value = colon < 0 ? uri : uri.slice(colon + 1);
  switch (scheme) {
    case 'sound': {
      const ms = services.sounds.durationMs(value, language);
      return ms === undefined ? { kind: 'missing' } : { kind: 'timed', ms };
    }
    case 'recording': {
      const ms = services.recordings.durationMs(value);
      return ms === undefined ? { kind: 'missing' } : { kind: 'timed', ms };
    }
    case 'tone':
      return { kind: 'endless' };
    case 'digits':
      return {
        kind: 'timed',
        ms: [...value].reduce(
          (sum, d) => sum + soundMs(services, digitSound[d] ?? `digits/${d}`, language),
          0,
        ),
      };
    case 'characters':
      return {
        kind: 'timed',
        ms: [...value].reduce((sum, c) => sum + soundMs(services, `letters/${c.toLowerCase()}`, language), 0),
      };
    case 'number': {
      const n = Number.parseInt(value, 10);
      if (Number.isNaN(n)) return { kind: 'missing' };
      return {
        kind: 'timed',
        ms: numberSounds(n).reduce((sum, s) => sum + soundMs(services, s, language), 0),
      };
    }
    default:
      return { kind: 'unknown-scheme' };
  }
}
