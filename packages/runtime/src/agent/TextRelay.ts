import type { MediaConnection, TimerHandle } from '@ringflow/client';
import type { Subscription } from 'rxjs';
import type { RecognitionSession } from '../speech/SpeechProviders.ts';
import type { AgentInput } from './AgentServices.ts';
import type { BotLink } from './BotLink.ts';
import {
  bridgeCallerWithMedia,
  type MadeMedia,
  makeMediaChannel,
  removeMediaChannel,
  setupCallOf,
} from './callerMedia.ts';
import { FRAME_MS, SLIN16_RATE, wholeFrames } from './pcm.ts';
import type { BotMessage, EndMessage, ToolMessage } from './textRelayProtocol.ts';
import { VoiceActivity } from './VoiceActivity.ts';

/** What the relay tells the session machine. */
export type RelayReport =
  | { readonly type: 'relay.ready' }
  | { readonly type: 'relay.unreachable'; readonly message: string }
  | { readonly type: 'relay.failed'; readonly message: string }
  | { readonly type: 'relay.callerTalking' }
  | { readonly type: 'relay.callerSaid'; readonly text: string }
  | { readonly type: 'relay.botSays'; readonly text: string }
  | { readonly type: 'relay.botDone' }
  /** An audio bot dropped its audio not yet heard (`clear`: its own barge-in); `callerTalking` says whether the caller talks now. */
  | { readonly type: 'relay.botCleared'; readonly callerTalking: boolean }
  | {
      readonly type: 'relay.tool';
      readonly id: string;
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>>;
    }
  | {
      readonly type: 'relay.botEnd';
      readonly result: string;
      readonly data: Readonly<Record<string, unknown>>;
    }
  | { readonly type: 'relay.closed' };

/** The report of a bot's `tool` or `end` (words both protocols share). */
export function reportOfToolOrEnd(message: ToolMessage | EndMessage): RelayReport {
  return message.type === 'tool'
    ? { type: 'relay.tool', id: message.id, name: message.name, args: message.args ?? {} }
    : { type: 'relay.botEnd', result: message.result, data: message.data ?? {} };
}

/** The ids of what the relay makes on the server, picked (and owned) by the session first. */
export interface RelayIds {
  readonly bridgeId: string;
  readonly mediaChannelId: string;
}

/** Frames sent in one message: 100 of 640 bytes stays under the server's 64 KB message limit. */
const FRAMES_PER_MESSAGE = 100;
const SAMPLES_PER_FRAME = (SLIN16_RATE * FRAME_MS) / 1000;
/** How long after its audio should have played a missing mark is given up on. */
const MARK_GRACE_MS = 1000;

/**
 * The text relay of one agent session, its input and output: the bot's connection, the media
 * socket of an external media channel bridged with the caller, speech-to-text of the caller's
 * audio and text-to-speech of the bot's words. It decides nothing: it reports what happens
 * (`RelayReport`) to the session's statechart, which tells it to interrupt the bot or to close.
 */
export class TextRelay {
  readonly #input: AgentInput;
  readonly #ids: RelayIds;
  readonly #report: (report: RelayReport) => void;
  readonly #voice: VoiceActivity;
  readonly #abort = new AbortController();
  #bot: BotLink | undefined;
  #media: MediaConnection | undefined;
  /** The client's media protocol, loaded when the media is set up (see `session.ts`). */
  #protocol: typeof import('@ringflow/client') | undefined;
  #recognition: RecognitionSession | undefined;
  #transcripts: Subscription | undefined;
  #entered: (() => void) | undefined;
  #mediaIn = false;
  /** Synthesis in order: each bot `say` waits for the ones before it. */
  #speaking: Promise<void> = Promise.resolve();
  /** Bumped on barge-in: words queued before it are dropped. */
  #generation = 0;
  #pendingSays = 0;
  #playingUntil = 0;
  #doneTimer: TimerHandle | undefined;
  /** Marks follow each utterance's audio: the last one processed means the caller heard it all. */
  #marks = 0;
  #markPlayed = 0;
  /** The caller stopped at this time and the bot's answer has not been heard yet. */
  #awaitingAnswerSince: number | undefined;
  #closed = false;
  /** What was made on the server, to be removed at the end. */
  readonly #made: MadeMedia = { bridge: false, mediaChannel: false };

  constructor(input: AgentInput, ids: RelayIds, report: (report: RelayReport) => void) {
    this.#input = input;
    this.#ids = ids;
    this.#report = report;
    this.#voice = new VoiceActivity(input.clock, () => report({ type: 'relay.callerTalking' }));
  }

  /** Connects the bot, then the media, then tells the bot the call; reports `relay.ready`. */
  async start(): Promise<void> {
    const { services, settings } = this.#input;
    try {
      this.#bot = await services.connectBot(settings.bot, { signal: this.#abort.signal });
    } catch (error) {
      if (!this.#closed)
        this.#report({
          type: 'relay.unreachable',
          message: `could not reach the bot ${settings.bot}: ${(error as Error).message}`,
        });
      return;
    }
    if (this.#closed) {
      this.#bot.close();
      return;
    }
    this.#bot.onMessage((message) => this.#fromBot(message));
    this.#bot.onClose(() => {
      if (!this.#closed) this.#report({ type: 'relay.failed', message: 'the bot closed the connection' });
    });
    try {
      await this.#connectMedia();
    } catch (error) {
      if (!this.#closed)
        this.#report({
          type: 'relay.failed',
          message: `could not connect the caller's audio: ${(error as Error).message}`,
        });
      return;
    }
    if (this.#closed) return;
    this.#bot.send({
      type: 'setup',
      protocol: 'ringflow-text-relay.1',
      call: setupCallOf(this.#input),
      context: settings.context,
    });
    this.#report({ type: 'relay.ready' });
  }

  /** The media channel entered the application (its StasisStart): it can be bridged. */
  mediaEntered(): void {
    this.#mediaIn = true;
    this.#entered?.();
  }

  async #connectMedia(): Promise<void> {
    const protocol = await import('@ringflow/client');
    this.#protocol = protocol;
    const { parseMediaEvent } = protocol;
    const { services, call } = this.#input;
    const { speechToText } = services;
    if (!speechToText || !services.textToSpeech)
      throw new Error(
        'the application has no speech providers for the text relay (speechToText, textToSpeech): give them, or use a bot of protocol audio',
      );
    const connectionId = await makeMediaChannel(this.#input, this.#ids, this.#made);
    const entered = this.#mediaIn ? Promise.resolve() : new Promise<void>((r) => (this.#entered = r));
    const media = await services.connectMedia(connectionId);
    this.#media = media;
    const started = new Promise<void>((resolve, reject) => {
      media.onText((text) => {
        const parsed = parseMediaEvent(text);
        if (parsed.kind !== 'event') return;
        const event = parsed.event;
        if (event.event === 'MEDIA_MARK_PROCESSED') return this.#markProcessed(event.correlation_id);
        if (event.event !== 'MEDIA_START') return;
        if (event.format !== 'slin16')
          reject(new Error(`the media socket carries ${event.format}, slin16 was asked`));
        else resolve();
      });
      media.onClose((code) => reject(new Error(`the media socket closed (${code})`)));
    });
    media.onBinary((data) => this.#fromCaller(data));
    media.onClose(() => {
      if (!this.#closed) this.#report({ type: 'relay.failed', message: 'the media socket closed' });
    });
    await Promise.all([started, entered]);
    await bridgeCallerWithMedia(this.#input, this.#ids);
    const language = this.#input.settings.language ?? call.language;
    this.#recognition = speechToText.start({
      sampleRate: SLIN16_RATE,
      ...(language !== undefined ? { language } : {}),
    });
    this.#transcripts = this.#recognition.transcripts$.subscribe({
      next: (t) => {
        const text = t.text.trim();
        if (text === '') return;
        this.#bot?.send({ type: 'caller', text, final: t.final });
        if (!t.final) return;
        this.#awaitingAnswerSince = this.#voice.lastVoicedAt ?? this.#input.clock.now();
        this.#report({ type: 'relay.callerSaid', text });
      },
      error: (e: unknown) => {
        if (!this.#closed)
          this.#report({
            type: 'relay.failed',
            message: `speech recognition failed: ${(e as Error).message}`,
          });
      },
    });
  }

  #fromCaller(data: Uint8Array): void {
    const protocol = this.#protocol!;
    const samples = protocol.decodeMediaAudio(protocol.mediaFormat('slin16')!, data);
    this.#voice.frame(samples, (samples.length / SLIN16_RATE) * 1000);
    this.#recognition?.write({ sampleRate: SLIN16_RATE, samples });
  }

  #fromBot(message: BotMessage | { readonly error: string }): void {
    if (this.#closed) return;
    if ('error' in message) {
      this.#report({ type: 'relay.failed', message: message.error });
      return;
    }
    switch (message.type) {
      case 'say':
        this.#report({ type: 'relay.botSays', text: message.text });
        this.#say(message.text);
        return;
      case 'tool':
      case 'end':
        this.#report(reportOfToolOrEnd(message));
        return;
    }
  }

  #say(text: string): void {
    const generation = this.#generation;
    this.#pendingSays++;
    this.#speaking = this.#speaking.then(async () => {
      try {
        if (generation !== this.#generation || this.#closed) return;
        const audio = await this.#input.services.textToSpeech!.synthesize(text, {
          sampleRate: SLIN16_RATE,
          signal: this.#abort.signal,
        });
        if (generation !== this.#generation || this.#closed) return;
        const samples = this.#protocol!.resampleSamples(audio.samples, audio.sampleRate, SLIN16_RATE);
        this.#play(wholeFrames(samples, SAMPLES_PER_FRAME));
      } catch (error) {
        if (!this.#closed)
          this.#report({
            type: 'relay.failed',
            message: `speech synthesis failed: ${(error as Error).message}`,
          });
      } finally {
        this.#pendingSays--;
        this.#scheduleDone();
      }
    });
  }

  #play(samples: Int16Array): void {
    const media = this.#media;
    if (!media?.open || samples.length === 0) return;
    const { clock, services } = this.#input;
    const now = clock.now();
    if (this.#awaitingAnswerSince !== undefined) {
      services.metrics?.turnLatency(Math.max(0, now - this.#awaitingAnswerSince));
      this.#awaitingAnswerSince = undefined;
    }
    const protocol = this.#protocol!;
    const bytes = protocol.encodeMediaAudio(protocol.mediaFormat('slin16')!, samples);
    const chunk = FRAMES_PER_MESSAGE * SAMPLES_PER_FRAME * 2;
    for (let at = 0; at < bytes.length; at += chunk) media.sendBinary(bytes.subarray(at, at + chunk));
    media.sendText(
      this.#protocol!.formatMediaCommand(
        { command: 'MARK_MEDIA', correlation_id: `m${++this.#marks}` },
        'plain-text',
      ),
    );
    const frames = samples.length / SAMPLES_PER_FRAME;
    this.#playingUntil = Math.max(now, this.#playingUntil) + frames * FRAME_MS;
  }

  #markProcessed(id: string): void {
    const n = Number(id.slice(1));
    if (!id.startsWith('m') || !(n > this.#markPlayed)) return;
    this.#markPlayed = n;
    this.#scheduleDone();
  }

  /** Everything sent has been heard (the last mark came back, or a flush dropped the rest). */
  get #allPlayed(): boolean {
    return this.#markPlayed >= this.#marks;
  }

  /**
   * Reports `relay.botDone` once nothing is left to say and the last audio has played: when its
   * mark comes back, or (a server that lost the mark) a second after it should have played.
   */
  #scheduleDone(): void {
    const clock = this.#input.clock;
    clock.clearTimeout(this.#doneTimer);
    if (this.#pendingSays > 0 || this.#closed) return;
    const done = () => {
      if (this.#pendingSays === 0 && !this.#closed) this.#report({ type: 'relay.botDone' });
    };
    if (this.#allPlayed) {
      done();
      return;
    }
    this.#doneTimer = clock.setTimeout(done, Math.max(0, this.#playingUntil - clock.now()) + MARK_GRACE_MS);
  }

  /** Barge-in: drops what the bot has still to say (queued audio and words) and tells it. */
  interrupt(): void {
    this.#generation++;
    this.#media?.sendText(this.#protocol!.formatMediaCommand({ command: 'FLUSH_MEDIA' }, 'plain-text'));
    // The flush drops the queued marks too: nothing sent before it is left to play.
    this.#markPlayed = this.#marks;
    this.#playingUntil = this.#input.clock.now();
    this.#bot?.send({ type: 'interrupted' });
    this.#input.services.metrics?.interrupted();
    this.#scheduleDone();
  }

  key(digit: string): void {
    this.#bot?.send({ type: 'key', digit });
  }

  toolResult(id: string, answer: { readonly result?: unknown; readonly error?: string }): void {
    this.#bot?.send({ type: 'toolResult', id, ...answer });
  }

  /**
   * Ends the session: tells the bot why (unless it ended it), closes the bot, the recogniser and
   * the media socket (the server hangs the media channel up), and destroys the bridge, which
   * lets the caller go on with the flow. Failures here are the server's cleanup's business.
   */
  async close(reason: string | undefined): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort(new Error(`the agent session ended (${reason ?? 'bot ended it'})`));
    const clock = this.#input.clock;
    clock.clearTimeout(this.#doneTimer);
    this.#voice.stop();
    this.#transcripts?.unsubscribe();
    this.#recognition?.close();
    if (reason !== undefined) this.#bot?.send({ type: 'hangup', reason });
    this.#bot?.close();
    this.#media?.close(1000);
    await removeMediaChannel(this.#input, this.#ids, this.#made);
  }
}
