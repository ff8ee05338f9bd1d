import { Subject } from '../rx.ts';
import type { PcmAudio, RecognitionSession, SpeechToText, Transcript } from './SpeechProviders.ts';

/**
 * A speech-to-text provider for tests in virtual time: it does not listen to the audio; a test
 * says what the caller said with {@link SimulatedSpeechToText.hear} when the caller stops talking
 * (the simulator carries the caller's talking as sound, so barge-in and timing stay real), and
 * every open recognition session gets it as the final transcript. One per call.
 *
 * @example
 * const stt = new SimulatedSpeechToText();
 * // the caller talks for 1.4 s (driver.startTalking ... stopTalking), then:
 * stt.hear('where is my order');
 */
export class SimulatedSpeechToText implements SpeechToText {
  readonly name = 'simulated';
  readonly #sessions = new Set<Subject<Transcript>>();
  #audioMs = 0;

  start(_options: { readonly sampleRate: number; readonly language?: string }): RecognitionSession {
    const transcripts = new Subject<Transcript>();
    this.#sessions.add(transcripts);
    const stop = () => {
      this.#sessions.delete(transcripts);
      transcripts.complete();
    };
    return {
      write: (audio: PcmAudio) => {
        this.#audioMs += (audio.samples.length / audio.sampleRate) * 1000;
      },
      transcripts$: transcripts.asObservable(),
      end: stop,
      close: stop,
    };
  }

  /** The caller said `text`: each open session gets it as a final transcript. */
  hear(text: string): void {
    for (const session of this.#sessions) session.next({ text, final: true });
  }

  /** True while a recognition session is open (an agent step is listening). */
  get listening(): boolean {
    return this.#sessions.size > 0;
  }

  /** Milliseconds of caller audio the sessions were given. */
  get audioMs(): number {
    return this.#audioMs;
  }
}
