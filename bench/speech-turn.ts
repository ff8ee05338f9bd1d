/**
 * A spoken turn's latency with the local speech providers (issue 30): the caller stops talking →
 * pocketsphinx's final transcript → espeak-ng's answer ready to play, the bot's own thinking
 * left out. The caller's audio is fed in real time, 20 ms per frame, as a media socket delivers
 * it, so the recogniser's process starts (and loads its model) while the caller talks.
 *
 *   npx tsx bench/speech-turn.ts [--runs 5]
 *
 *   end of speech → transcript   from the last frame of espeak-ng's audio (its own quiet tail
 *                                 included) to the final transcript: the segmenter's 600 ms of
 *                                 silence that ends the utterance, then the decode's tail
 *   answer synthesis             espeak-ng for "it will arrive tomorrow" at 16 kHz
 *   turn                          end of speech → the answer's audio ready (the two above)
 *
 * Not a test: figures depend on the machine and its load. Results: bench/RESULTS.md.
 */
import { parseArgs } from 'node:util';
import { EspeakNgTextToSpeech, PocketsphinxSpeechToText } from '@ringflow/runtime';
import { fmt, median, spread } from './apps/stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 5);
const RATE = 16_000;
const FRAME = (RATE * 20) / 1000;

const tts = new EspeakNgTextToSpeech();
const stt = new PocketsphinxSpeechToText();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const words = await tts.synthesize('where is my order', { sampleRate: RATE });
const caller = new Int16Array(words.samples.length + RATE); // the words, then a second of a quiet line
caller.set(words.samples);

const endOfSpeech: number[] = [];
const synthesis: number[] = [];
const turns: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const session = stt.start({ sampleRate: RATE, language: 'en-US' });
  let transcriptAt = 0;
  let text = '';
  session.transcripts$.subscribe((t) => {
    transcriptAt = performance.now();
    text = t.text;
  });
  let wordsEndedAt = 0;
  const started = performance.now();
  for (let at = 0, frame = 0; at < caller.length && transcriptAt === 0; at += FRAME, frame++) {
    await sleep(Math.max(0, started + frame * 20 - performance.now()));
    session.write({ sampleRate: RATE, samples: caller.subarray(at, at + FRAME) });
    if (wordsEndedAt === 0 && at + FRAME >= words.samples.length) wordsEndedAt = performance.now();
  }
  while (transcriptAt === 0) await sleep(5);
  session.close();
  const synthStart = performance.now();
  await tts.synthesize('it will arrive tomorrow', { sampleRate: RATE });
  const synthMs = performance.now() - synthStart;
  endOfSpeech.push(transcriptAt - wordsEndedAt);
  synthesis.push(synthMs);
  turns.push(transcriptAt - wordsEndedAt + synthMs);
  console.log(`run ${run + 1}: '${text}'`);
}
const line = (label: string, samples: number[]) =>
  console.log(`${label.padEnd(30)} median ${fmt(median(samples))} ms  (${spread(samples, 0)})`);
line('end of speech → transcript', endOfSpeech);
line('answer synthesis', synthesis);
line('turn (no bot thinking)', turns);
