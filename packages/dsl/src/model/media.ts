import { s } from '../schema/s.ts';

const SCHEMES = ['sound', 'tone', 'recording', 'digits', 'number', 'characters'] as const;

/**
 * Checks one media URI as a server would accept it: `sound:hello-world`, `tone:ring;tonezone=fr`,
 * `recording:voicemail/42`, `digits:1234`, `number:42`, `characters:abc`.
 * @returns the problem in words, or undefined when valid.
 */
export function checkMediaUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const colon = uri.indexOf(':');
  const scheme = colon < 0 ? '' : uri.slice(0, colon);
  const rest = colon < 0 ? uri : uri.slice(colon + 1);
  if (!(SCHEMES as readonly string[]).includes(scheme))
    return `"${uri}" has ${scheme ? `an unknown scheme "${scheme}:"` : 'no scheme'}; media starts with one of ${SCHEMES.map((x) => `${x}:`).join(', ')} (e.g. "sound:${rest || 'hello-world'}").`;
  if (rest === '') return `"${uri}" names no media after "${scheme}:".`;
  switch (scheme) {
    case 'digits':
      return /^[0-9*#A-Da-dwW]+$/.test(rest)
        ? undefined
        : `"${uri}": digits: takes only 0-9, *, #, A-D and w (pause).`;
    case 'number':
      return /^-?\d+$/.test(rest) ? undefined : `"${uri}": number: takes a whole number, e.g. "number:42".`;
    case 'tone': {
      const [tone, ...options] = rest.split(';');
      if (!tone) return `"${uri}": tone: needs a tone name or pattern, e.g. "tone:ring;tonezone=fr".`;
      for (const option of options)
        if (!/^tonezone=[a-z]{2}$/i.test(option))
          return `"${uri}": the only tone option is ";tonezone=<two-letter country code>", found ";${option}".`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** One media URI. */
export const mediaUriSchema = s.string({
  description:
    'A media URI: sound:<name>, tone:<name or pattern>[;tonezone=<cc>], recording:<name>, digits:<digits>, number:<n>, characters:<text>.',
  examples: ['sound:hello-world', 'tone:ring;tonezone=fr', 'digits:1234'],
  refine: { code: 'invalid-media', test: checkMediaUri },
});

/** One media URI or a list played one after the other. */
export const mediaListSchema = s.union([mediaUriSchema, s.array(mediaUriSchema, { minItems: 1 })]);

/** What to play: a literal media list, an expression giving one, or a prompt from the catalogue. */
export const playableFields = {
  media: s.optional(
    s.value(mediaListSchema, { description: 'Media to play (one URI or a list), or { expr } giving them.' }),
  ),
  prompt: s.optional(
    s.union(
      [
        s.string({ description: "A prompt name from the flow's prompt catalogue." }),
        s.array(s.string(), { minItems: 1 }),
      ],
      {
        description: 'Prompt name(s) from the catalogue, played in the call language.',
      },
    ),
  ),
  language: s.optional(
    s.string({
      description:
        'Language for the prompts and sounds (default: the call language, then the flow language).',
    }),
  ),
};
