import type { Observable } from 'rxjs';

/**
 * Speech-to-text and text-to-speech behind one interface each: the `agent` step's text relay
 * turns the caller's audio into words for the bot and the bot's words into audio for the caller.
 * Adapters: the built-in local ones (espeak-ng, pocketsphinx), the simulated ones the tests use in
 * virtual time, and any cloud provider a user writes against these types.
 */

/** Audio the providers take and give: signed 16-bit mono samples at `sampleRate` Hz. */
export interface PcmAudio {
  readonly sampleRate: number;
  readonly samples: Int16Array;
}

/** What a recogniser heard: words while the caller talks (`final: false`), then the utterance. */
export interface Transcript {
  readonly text: string;
  /** True for the transcript of a whole utterance (the caller stopped talking). */
  readonly final: boolean;
}

/** The recognition of one stream of a caller's audio, utterance after utterance. */
export interface RecognitionSession {
  /** Feeds the caller's next audio, in order, at the session's sample rate. */
  write(audio: PcmAudio): void;
  /** What the recogniser heard, as it hears it; completes after `end()` or `close()`. */
  readonly transcripts$: Observable<Transcript>;
  /** No more audio: the last utterance's final transcript comes, then `transcripts$` completes. */
  end(): void;
  /** Stops at once: nothing more is told and the provider's resources are released. */
  close(): void;
}

export interface SpeechToText {
  /** The provider's name, for logs and metrics (`pocketsphinx`, `simulated`). */
  readonly name: string;
  /** Starts recognising audio at `sampleRate`; `language` is a BCP 47 tag (`en-US`). */
  start(options: { readonly sampleRate: number; readonly language?: string }): RecognitionSession;
}

export interface TextToSpeech {
  /** The provider's name, for logs and metrics (`espeak-ng`, `simulated`). */
  readonly name: string;
  /**
   * Speaks `text` as audio at `sampleRate`. Rejects with an error that says what failed (the
   * provider missing, its refusal) and rejects with the signal's reason when aborted.
   */
  synthesize(
    text: string,
    options: { readonly sampleRate: number; readonly voice?: string; readonly signal?: AbortSignal },
  ): Promise<PcmAudio>;
}
