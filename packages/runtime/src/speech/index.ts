export type {
  PcmAudio,
  RecognitionSession,
  SpeechToText,
  TextToSpeech,
  Transcript,
} from './SpeechProviders.ts';
export { EspeakNgTextToSpeech } from './espeakNg.ts';
export type { EspeakNgOptions } from './espeakNg.ts';
export { DEBIAN_EN_US_MODEL, PocketsphinxSpeechToText } from './pocketsphinx.ts';
export type { PocketsphinxOptions } from './pocketsphinx.ts';
export { UtteranceSegmenter } from './UtteranceSegmenter.ts';
export type { UtteranceListener, UtteranceSegmenterOptions } from './UtteranceSegmenter.ts';
export { readWav, writeWav } from './wavFile.ts';
export { findLocalSpeech, LOCAL_SPEECH_PACKAGES } from './localSpeech.ts';
