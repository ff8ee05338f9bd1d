import type { MediaSocket, TimerHandle } from '@ringflow/client';
import type { Subscription } from 'rxjs';
import type { AgentInput } from './AgentServices.ts';
import type { AudioBotLink } from './AudioBotLink.ts';
import { AUDIO_BOT_MEDIA, AUDIO_BOT_PROTOCOL, type AudioBotMessage } from './audioBotProtocol.ts';
import {
  bridgeCallerWithMedia,
  type MadeMedia,
  makeMediaChannel,
  removeMediaChannel,
  setupCallOf,
} from './callerMedia.ts';
import { type RelayIds, type RelayReport, reportOfToolOrEnd } from './TextRelay.ts';
import { VoiceActivity } from './VoiceActivity.ts';

/** No audio from the bot for this long ends a stretch of its speech (a mark then tells when it was heard). */
const STRETCH_GAP_MS = 100;
/** How long after its audio should have played a missing mark is given up on. */
const MARK_GRACE_MS = 1000;
/**
 * The most of the bot's audio held ahead of the caller's ear (the protocol has no flow control
 * towards the bot: a bot sends as fast as it makes audio, ringflow paces it): 60 s of frames.
 */
export const MAX_AUDIO_AHEAD_FRAMES = 3000;

/**
 * The audio relay of one agent session (`protocol: audio`): the caller's frames go to the bot as
 * they come, the bot's audio goes to the caller through the client's `MediaSocket` (cut into
 * whole frames, paced on the clock, held while the server says MEDIA_XOFF), and the control
 * messages of `audioBotProtocol.ts` go both ways. Like the text relay it decides nothing: it
 * reports to the session's statechart (`agentMachine`) what happens: the caller starts and stops
 * talking (its voice-activity detector), the bot starts a stretch of speech and the caller has
 * heard it all (a mark of its own after each stretch), the bot cleared its audio, asked for a
 * tool, ended.
 */
export class AudioRelay {
  readonly #input: AgentInput;
  readonly #ids: RelayIds;
  readonly #report: (report: RelayReport) => void;
  readonly #voice: VoiceActivity;
  readonly #abort = new AbortController();
  readonly #made: MadeMedia = { bridge: false, mediaChannel: false };
  #bot: AudioBotLink | undefined;
  #socket: MediaSocket | undefined;
  /** Decodes the caller's frames (the client's, loaded with the media socket). */
  #samplesOf: ((frame: Uint8Array) => Int16Array) | undefined;
  #callerAudio: Subscription | undefined;
  #entered: (() => void) | undefined;
  #mediaIn = false;
  /** The bot was told `setup`: the caller's audio goes to it from now on. */
  #setUp = false;
  /** A stretch of the bot's speech is queued or playing. */
  #botTalking = false;
  #gapTimer: TimerHandle | undefined;
  #graceTimer: TimerHandle | undefined;
  /** The relay's own marks: the latest one placed, and whether audio came after it. */
  #stretchMarks = 0;
  #audioSinceMark = false;
  /** The bot's marks, by the id sent to the server. */
  #botMarks = 0;
  /** The caller stopped at this time and the bot's answer has not been heard yet. */
  #awaitingAnswerSince: number | undefined;
  #closed = false;

  constructor(input: AgentInput, ids: RelayIds, report: (report: RelayReport) => void) {
    this.#input = input;
    this.#ids = ids;
    this.#report = report;
    this.#voice = new VoiceActivity(
      input.clock,
      () => report({ type: 'relay.callerTalking' }),
      () => this.#callerStopped(),
    );
  }

  /** Connects the bot, then the media, then tells the bot the call; reports `relay.ready`. */
  async start(): Promise<void> {
    const { services, settings } = this.#input;
    if (!services.connectAudioBot) {
      this.#report({
        type: 'relay.failed',
        message: `this application cannot reach bots of the audio protocol (its agent services have no connectAudioBot) for ${settings.bot}`,
      });
      return;
    }
    try {
      this.#bot = await services.connectAudioBot(settings.bot, { signal: this.#abort.signal });
    } catch (error) {
      if (!this.#closed)
        this.#report({
          type: 'relay.unreachable',
          message: `could not reach the audio bot ${settings.bot}: ${(error as Error).message}`,
        });
      return;
    }
    const bot = this.#bot;
    if (this.#closed) {
      bot.close();
      return;
    }
    bot.onMessage((message) => this.#fromBot(message));
    bot.onAudio((data) => this.#botAudio(data));
    bot.onClose(() => this.#fail('the bot closed the connection'));
    try {
      await this.#connectMedia();
    } catch (error) {
      this.#fail(`could not connect the caller's audio: ${(error as Error).message}`);
      return;
    }
    if (this.#closed) return;
    bot.send({
      type: 'setup',
      protocol: AUDIO_BOT_PROTOCOL,
      call: setupCallOf(this.#input),
      context: settings.context,
      media: AUDIO_BOT_MEDIA,
    });
    this.#setUp = true;
    this.#report({ type: 'relay.ready' });
  }

  /** The media channel entered the application (its StasisStart): it can be bridged. */
  mediaEntered(): void {
    this.#mediaIn = true;
    this.#entered?.();
  }

  async #connectMedia(): Promise<void> {
    // Loaded when a session starts (see session.ts): validating a flow loads no client.
    const { MediaSocket, decodeMediaAudio, mediaFormat } = await import('@ringflow/client');
    const slin16 = mediaFormat(AUDIO_BOT_MEDIA.format)!;
    this.#samplesOf = (frame) => decodeMediaAudio(slin16, frame);
    const connectionId = await makeMediaChannel(this.#input, this.#ids, this.#made);
    const entered = this.#mediaIn ? Promise.resolve() : new Promise<void>((r) => (this.#entered = r));
    const connection = await this.#input.services.connectMedia(connectionId);
    const socket = new MediaSocket(connection, { clock: this.#input.clock, startTimeoutMs: 0 });
    this.#socket = socket;
    void socket.closed.then(({ code }) => this.#fail(`the media socket closed (${code})`));
    const { start } = await socket.started;
    if (start.format !== AUDIO_BOT_MEDIA.format)
      throw new Error(`the media socket carries ${start.format}, ${AUDIO_BOT_MEDIA.format} was asked`);
    this.#callerAudio = socket.audio$.subscribe((frame) => this.#callerFrame(frame));
    await entered;
    await bridgeCallerWithMedia(this.#input, this.#ids);
  }

  #callerFrame(frame: Uint8Array): void {
    if (!this.#setUp || this.#closed) return;
    const samples = this.#samplesOf!(frame);
    this.#voice.frame(samples, (samples.length / AUDIO_BOT_MEDIA.sampleRate) * 1000);
    this.#bot?.sendAudio(frame);
  }

  /** The caller stopped talking: their turn is over, the bot's answer is awaited. */
  #callerStopped(): void {
    if (this.#closed) return;
    this.#awaitingAnswerSince = this.#voice.lastVoicedAt ?? this.#input.clock.now();
    this.#report({ type: 'relay.callerSaid', text: '' });
  }

  #botAudio(data: Uint8Array | { readonly error: string }): void {
    if (this.#closed) return;
    if (!(data instanceof Uint8Array)) {
      this.#fail(data.error);
      return;
    }
    const socket = this.#socket;
    if (!this.#setUp || socket?.state !== 'started' || data.byteLength === 0) return;
    const { clock, services } = this.#input;
    if (!this.#botTalking) {
      this.#botTalking = true;
      if (this.#awaitingAnswerSince !== undefined) {
        services.metrics?.turnLatency(Math.max(0, clock.now() - this.#awaitingAnswerSince));
        this.#awaitingAnswerSince = undefined;
      }
      this.#report({ type: 'relay.botSays', text: '' });
    }
    socket.play(data);
    if (socket.pendingFrames > MAX_AUDIO_AHEAD_FRAMES) {
      this.#fail(
        `the bot sent more than ${(MAX_AUDIO_AHEAD_FRAMES * AUDIO_BOT_MEDIA.frameMs) / 1000} s of audio ahead of the caller`,
      );
      return;
    }
    this.#audioSinceMark = true;
    clock.clearTimeout(this.#graceTimer);
    clock.clearTimeout(this.#gapTimer);
    this.#gapTimer = clock.setTimeout(() => this.#endOfStretch(), STRETCH_GAP_MS);
  }

  /**
   * The bot paused: a mark after its audio tells when the caller has heard it all (`relay.botDone`),
   * unless more audio came meanwhile. A server that loses the mark is given up on a second after
   * the audio should have played.
   */
  #endOfStretch(): void {
    const socket = this.#socket;
    if (this.#closed || !socket || socket.state !== 'started') return;
    const id = ++this.#stretchMarks;
    this.#audioSinceMark = false;
    const done = () => {
      if (this.#closed || id !== this.#stretchMarks || this.#audioSinceMark || !this.#botTalking) return;
      this.#input.clock.clearTimeout(this.#graceTimer);
      this.#botTalking = false;
      this.#report({ type: 'relay.botDone' });
    };
    const playsFor = (socket.pendingFrames + 2) * AUDIO_BOT_MEDIA.frameMs;
    void socket.mark(`rf${id}`).then(
      (outcome) => outcome === 'played' && done(),
      () => {},
    );
    this.#graceTimer = this.#input.clock.setTimeout(done, playsFor + MARK_GRACE_MS);
  }

  #fromBot(message: AudioBotMessage | { readonly error: string }): void {
    if (this.#closed) return;
    if ('error' in message) {
      this.#fail(message.error);
      return;
    }
    switch (message.type) {
      case 'mark':
        this.#botMark(message.name);
        return;
      case 'clear':
        this.#clear();
        return;
      case 'tool':
      case 'end':
        this.#report(reportOfToolOrEnd(message));
        return;
    }
  }

  /** The bot's mark: answered with `mark` once the audio before it was heard (or dropped). */
  #botMark(name: string): void {
    const socket = this.#socket;
    if (socket?.state !== 'started') {
      this.#bot?.send({ type: 'mark', name, played: false });
      return;
    }
    void socket.mark(`b${++this.#botMarks}`).then(
      (outcome) => {
        if (!this.#closed) this.#bot?.send({ type: 'mark', name, played: outcome === 'played' });
      },
      () => {},
    );
  }

  /** Drops the bot's audio not yet heard (FLUSH_MEDIA); true when there was some. */
  #flush(): boolean {
    const clock = this.#input.clock;
    clock.clearTimeout(this.#gapTimer);
    clock.clearTimeout(this.#graceTimer);
    if (this.#socket?.state === 'started') this.#socket.flush();
    const was = this.#botTalking;
    this.#botTalking = false;
    return was;
  }

  /** The bot's own barge-in (`clear`). */
  #clear(): void {
    if (!this.#flush()) return;
    this.#input.services.metrics?.interrupted();
    this.#report({ type: 'relay.botCleared', callerTalking: this.#voice.talking });
  }

  /** ringflow's barge-in (`bargeIn: true`): the caller talked over the bot. */
  interrupt(): void {
    this.#flush();
    this.#bot?.send({ type: 'interrupted' });
    this.#input.services.metrics?.interrupted();
  }

  key(digit: string): void {
    this.#bot?.send({ type: 'key', digit });
  }

  toolResult(id: string, answer: { readonly result?: unknown; readonly error?: string }): void {
    this.#bot?.send({ type: 'toolResult', id, ...answer });
  }

  #fail(message: string): void {
    if (!this.#closed) this.#report({ type: 'relay.failed', message });
  }

  /**
   * Ends the session: tells the bot why (unless it ended it), closes the bot and the media socket
   * (the server hangs the media channel up), and removes the channel and the bridge.
   */
  async close(reason: string | undefined): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort(new Error(`the agent session ended (${reason ?? 'bot ended it'})`));
    const clock = this.#input.clock;
    clock.clearTimeout(this.#gapTimer);
    clock.clearTimeout(this.#graceTimer);
    this.#voice.stop();
    this.#callerAudio?.unsubscribe();
    if (reason !== undefined) this.#bot?.send({ type: 'hangup', reason });
    this.#bot?.close();
    this.#socket?.close(1000);
    await removeMediaChannel(this.#input, this.#ids, this.#made);
  }
}
