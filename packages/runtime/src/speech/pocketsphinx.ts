import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { encodeMediaAudio, mediaFormat, resampleSamples } from '@ringflow/client';
import type { Observable } from 'rxjs';
import { Subject } from '../rx.ts';
import { NOT_FOUND_STATUS, programMissing, startProgram } from './localProgram.ts';
import type { PcmAudio, RecognitionSession, SpeechToText, Transcript } from './SpeechProviders.ts';
import { UtteranceSegmenter, type UtteranceSegmenterOptions } from './UtteranceSegmenter.ts';

/** Where Debian's pocketsphinx-en-us puts the US English acoustic model. */
export const DEBIAN_EN_US_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us';

export interface PocketsphinxOptions extends UtteranceSegmenterOptions {
  /** The program to run. Default `pocketsphinx_continuous` (Debian's pocketsphinx, 0.8+5prealpha). */
  readonly program?: string;
  /** The acoustic model directory (`-hmm`). Default: the program's own, Debian's en-us model. */
  readonly acousticModel?: string;
  /** A language model (`-lm`) and its dictionary (`-dict`), for another vocabulary or language. */
  readonly languageModel?: string;
  readonly dictionary?: string;
}

/** The rate the en-us model was trained at: every utterance is resampled to it. */
const MODEL_RATE = 16_000;
/** Silence around each utterance: the program's own voice detector needs some before and after. */
const LEAD_IN_MS = 250;
const TAIL_MS = 300;
const PACKAGES = 'pocketsphinx pocketsphinx-en-us';

/**
 * Speech-to-text on the local `pocketsphinx_continuous` program (CMU Sphinx): offline and free,
 * but far from a cloud recogniser; it gets short, common phrases ("where is my order") and
 * misses much else. Utterances are cut by energy here ({@link UtteranceSegmenter}); each one
 * is streamed to a fresh process as raw 16 kHz samples (`-infile /dev/stdin`, a pipe) from its start, so
 * the model loads while the caller talks, and its words come back as the utterance's final
 * transcript. (One long-running process recognises the second and later utterances worse:
 * its live cepstral mean drifts over the silences.) No partial transcripts.
 *
 * @example
 * const stt = new PocketsphinxSpeechToText();
 * const session = stt.start({ sampleRate: 8000 });
 * session.transcripts$.subscribe((t) => console.log(t.text)); // 'where is my order'
 * for (const frame of callerFrames) session.write({ sampleRate: 8000, samples: frame });
 * session.end();
 */
export class PocketsphinxSpeechToText implements SpeechToText {
  readonly name = 'pocketsphinx';

  constructor(private readonly options: PocketsphinxOptions = {}) {
    if ((options.languageModel === undefined) !== (options.dictionary === undefined)) {
      throw new TypeError('pocketsphinx: languageModel and dictionary go together (give both or neither)');
    }
  }

  start(options: { readonly sampleRate: number; readonly language?: string }): RecognitionSession {
    const { sampleRate, language } = options;
    if (!(sampleRate >= 8000 && sampleRate <= 48_000)) {
      throw new RangeError(`pocketsphinx: sampleRate must be 8000..48000 Hz (got ${sampleRate})`);
    }
    const ownModel = this.options.acousticModel !== undefined || this.options.languageModel !== undefined;
    if (language !== undefined && !/^en(-|$)/i.test(language) && !ownModel) {
      throw new Error(
        `pocketsphinx: the built-in model is US English; for '${language}' give acousticModel, languageModel and dictionary`,
      );
    }
    if (this.options.acousticModel === undefined && !existsSync(DEBIAN_EN_US_MODEL)) {
      throw new Error(
        `pocketsphinx: no acoustic model at ${DEBIAN_EN_US_MODEL}: install it (apt-get install -y pocketsphinx-en-us) or give acousticModel`,
      );
    }
    return new PocketsphinxSession(this.options, sampleRate, this.args());
  }

  private args(): string[] {
    const { acousticModel, languageModel, dictionary } = this.options;
    return [
      '-infile',
      '/dev/stdin',
      '-logfn',
      '/dev/null',
      ...(acousticModel ? ['-hmm', acousticModel] : []),
      ...(languageModel && dictionary ? ['-lm', languageModel, '-dict', dictionary] : []),
    ];
  }
}

/** One caller's stream: the segmenter, one process per utterance, transcripts in utterance order. */
class PocketsphinxSession implements RecognitionSession {
  readonly transcripts$: Observable<Transcript>;
  private readonly subject = new Subject<Transcript>();
  private readonly segmenter: UtteranceSegmenter;
  private readonly program: string;
  private readonly processes = new Set<ChildProcess>();
  private current: ChildProcess | undefined;
  /** The transcripts of the utterances so far, told in order as each is ready. */
  private told: Promise<void> = Promise.resolve();
  private state: 'listening' | 'ending' | 'closed' = 'listening';
  private readonly slin = mediaFormat('slin16')!;

  constructor(
    options: PocketsphinxOptions,
    private readonly sampleRate: number,
    private readonly args: readonly string[],
  ) {
    this.program = options.program ?? 'pocketsphinx_continuous';
    this.transcripts$ = this.subject.asObservable();
    this.segmenter = new UtteranceSegmenter(
      sampleRate,
      {
        start: (preroll) => this.utteranceStarted(preroll),
        audio: (samples) => this.feed(samples),
        end: () => this.utteranceEnded(),
      },
      options,
    );
  }

  write(audio: PcmAudio): void {
    if (this.state !== 'listening') return;
    if (audio.sampleRate !== this.sampleRate) {
      this.fail(
        new Error(
          `pocketsphinx: audio at ${audio.sampleRate} Hz written to a session started at ${this.sampleRate} Hz`,
        ),
      );
      return;
    }
    this.segmenter.write(audio.samples);
  }

  end(): void {
    if (this.state !== 'listening') return;
    this.state = 'ending';
    this.segmenter.finish();
    void this.told.then(() => {
      if (this.state === 'ending') this.finish();
    });
  }

  close(): void {
    if (this.state === 'closed') return;
    this.finish();
  }

  private finish(): void {
    this.state = 'closed';
    for (const child of this.processes) child.kill('SIGKILL');
    this.processes.clear();
    this.current = undefined;
    this.subject.complete();
  }

  private fail(error: Error): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const child of this.processes) child.kill('SIGKILL');
    this.processes.clear();
    this.subject.error(error);
  }

  private utteranceStarted(preroll: Int16Array): void {
    let failed: Error | undefined;
    const child = startProgram(
      this.program,
      this.args,
      PACKAGES,
      (error) => {
        failed = error;
        this.fail(error);
      },
      { stdinIsFile: true },
    );
    this.processes.add(child);
    this.current = child;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    const heard = new Promise<string | Error>((resolve) => {
      child.once('close', (code, signal) => {
        this.processes.delete(child);
        if (failed) resolve(failed);
        else if (code === NOT_FOUND_STATUS) resolve(programMissing(this.program, PACKAGES));
        else if (code !== 0 && signal === null) {
          const message = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-2).join(' ');
          resolve(new Error(`pocketsphinx_continuous exited with ${code}${message ? `: ${message}` : ''}`));
        } else {
          resolve(
            Buffer.concat(out)
              .toString('utf8')
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean)
              .join(' '),
          );
        }
      });
    });
    this.told = this.told.then(async () => {
      const result = await heard;
      if (this.state === 'closed') return;
      if (result instanceof Error) this.fail(result);
      else if (result !== '') this.subject.next({ text: result, final: true });
    });
    this.send(child, new Int16Array((MODEL_RATE * LEAD_IN_MS) / 1000), MODEL_RATE);
    this.send(child, preroll, this.sampleRate);
  }

  private feed(samples: Int16Array): void {
    if (this.current) this.send(this.current, samples, this.sampleRate);
  }

  private utteranceEnded(): void {
    const child = this.current;
    this.current = undefined;
    if (!child) return;
    this.send(child, new Int16Array((MODEL_RATE * TAIL_MS) / 1000), MODEL_RATE);
    child.stdin?.end();
  }

  private send(child: ChildProcess, samples: Int16Array, rate: number): void {
    if (samples.length === 0 || !child.stdin?.writable) return;
    const at16k = rate === MODEL_RATE ? samples : resampleSamples(samples, rate, MODEL_RATE);
    child.stdin.write(encodeMediaAudio(this.slin, at16k));
  }
}
