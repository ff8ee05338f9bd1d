import type { FlowCompileInfo } from '../steps/StepDefinition.ts';
import type { Value } from '../schema/s.ts';
import { type ActionArgs, resolveOptional, scopeOf } from './FlowContext.ts';

/** What to play, as the play-like steps accept it. */
export interface Playable {
  readonly media?: Value<string | string[]>;
  readonly prompt?: string | string[];
  readonly language?: string;
}

/** The language a call hears: the step's, else the call's channel language, else the flow's. */
export function languageOf(playable: Playable | undefined, args: ActionArgs, flow: FlowCompileInfo): string {
  return playable?.language ?? args.context.call.language ?? flow.defaultLanguage;
}

/**
 * Turns prompts and media into the URIs sent to the server. Prompts come from the catalogue in the
 * call's language, falling back to the flow's default language.
 * @throws Error when a prompt has no media in either language (the validator prevents this).
 */
export function resolveMedia(
  playable: Playable,
  args: ActionArgs,
  flow: FlowCompileInfo,
): { media: string[]; lang: string } {
  const lang = languageOf(playable, args, flow);
  const media: string[] = [];
  const prompts =
    playable.prompt === undefined ? [] : Array.isArray(playable.prompt) ? playable.prompt : [playable.prompt];
  for (const name of prompts) {
    const uris = flow.prompt(name, lang) ?? flow.prompt(name, flow.defaultLanguage);
    if (!uris) throw new Error(`prompt "${name}" has no media in "${lang}" nor in "${flow.defaultLanguage}"`);
    media.push(...uris);
  }
  const literal = resolveOptional(playable.media, scopeOf(args.context, args.event));
  if (literal !== undefined)
    media.push(...(Array.isArray(literal) ? literal.map(String) : [String(literal)]));
  return { media, lang };
}
