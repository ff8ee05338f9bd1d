import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EspeakNgTextToSpeech } from './espeakNg.ts';
import { DEBIAN_EN_US_MODEL, PocketsphinxSpeechToText } from './pocketsphinx.ts';
import type { SpeechToText, TextToSpeech } from './SpeechProviders.ts';

/** The Debian packages of the local providers. */
export const LOCAL_SPEECH_PACKAGES = 'espeak-ng pocketsphinx pocketsphinx-en-us';

/** True when `program` is an executable file in one of PATH's directories. */
function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/**
 * The built-in local speech providers (espeak-ng for text-to-speech, pocketsphinx with Debian's
 * en-us model for speech-to-text), once checked to be installed; otherwise a sentence naming what
 * is missing and how to install it (what `ringflow run` says for a flow of the text relay).
 * @example
 * const local = findLocalSpeech();
 * if ('problem' in local) throw new Error(local.problem);
 */
export function findLocalSpeech(
  options: { readonly path?: string } = {},
):
  | { readonly speechToText: SpeechToText; readonly textToSpeech: TextToSpeech }
  | { readonly problem: string } {
  const missing = [
    ...(onPath('espeak-ng', options.path) ? [] : ["the program 'espeak-ng'"]),
    ...(onPath('pocketsphinx_continuous', options.path) ? [] : ["the program 'pocketsphinx_continuous'"]),
    ...(existsSync(DEBIAN_EN_US_MODEL) ? [] : [`the en-us model (${DEBIAN_EN_US_MODEL})`]),
  ];
  if (missing.length > 0)
    return {
      problem: `the local speech providers are not installed: ${missing.join(', ')} missing; install them with apt-get install -y ${LOCAL_SPEECH_PACKAGES}`,
    };
  return { speechToText: new PocketsphinxSpeechToText(), textToSpeech: new EspeakNgTextToSpeech() };
}
