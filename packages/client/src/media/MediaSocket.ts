import type { Observable } from 'rxjs';
import { Subject } from '../rx.ts';
import { type Clock, systemClock, type TimerHandle } from '../clock/Clock.ts';
import type { MediaConnection } from './MediaConnection.ts';
import { formatMediaCommand, type MediaCommand, type MediaDirection } from './mediaCommands.ts';
import { type MediaEvent, type MediaStart, type MediaStatus, parseMediaEvent } from './mediaEvents.ts';
import { type MediaFormat, mediaFormat, PTIME_MS, silentFrame } from './mediaFormats.ts';
import type { MediaControlFormat } from './mediaLimits.ts';
import { MediaSender } from './MediaSender.ts';

export interface MediaSocketOptions {
  /** Paces the audio sent and times the wait for MEDIA_START. Default: the system clock. */
  readonly clock?: Clock;
  /** Frames kept queued at the server ahead of real time. Default 2 (40 ms at 20 ms frames). */
  readonly aheadFrames?: number;
  /** How long to wait for MEDIA_START before closing. Default 10000 ms; 0 waits for ever. */
  readonly startTimeoutMs?: number;
}

/** The media channel a socket carries, from its MEDIA_START. */
export interface MediaSocketStart {
  readonly start: MediaStart;
  /** The framing of `start.format` (unknown names are taken as passed through). */
  readonly format: MediaFormat;
  /** How this connection writes control messages (the form MEDIA_START came in). */
  readonly controlFormat: MediaControlFormat;
}

/**
 * How a mark ended: its audio played, FLUSH dropped it, the server refused it (an ERROR about
 * MARK_MEDIA, as while the direction is `in`), or the connection closed first.
 */
export type MarkOutcome = 'played' | 'flushed' | 'refused' | 'closed';

/** Text from the server that is not a known event (logged by the application, never thrown). */
export interface MediaProblem {
  readonly text: string;
  readonly reason: string;
}

/**
 * One external media channel's WebSocket, for an application: waits for MEDIA_START, sends
 * audio paced in whole frames (marks, FLUSH, MEDIA_XOFF/XON honoured), and tells the audio and
 * the control events it receives as RxJS observables. Both connection modes give one:
 * {@link connectMediaSocket} (the application connects in) and {@link MediaSocketServer} (the
 * server connects out).
 *
 * @example
 * const socket = await connectMediaSocket({ url: mediaSocketUrl(ariUrl, connectionId) });
 * const { format } = await socket.started; // ulaw, 160-byte frames
 * socket.audio$.subscribe((frame) => recogniser.write(decodeMediaAudio(format, frame)));
 * socket.play(greeting);
 * if ((await socket.mark()) === 'played') console.log('the caller heard it all');
 * socket.flush(); // barge-in: drop what is queued
 * socket.hangup(); // the server ends the channel and closes with 1000
 */
export class MediaSocket {
  /** MEDIA_START: resolves first; rejects if the connection closes or the wait times out before. */
  readonly started: Promise<MediaSocketStart>;
  /** How the connection ended: `{ code }` (1000 after a hang-up). Never rejects. */
  readonly closed: Promise<{ readonly code: number }>;
  private readonly audioSubject = new Subject<Uint8Array>();
  private readonly eventSubject = new Subject<MediaEvent>();
  private readonly problemSubject = new Subject<MediaProblem>();
  private readonly clock: Clock;
  private readonly options: MediaSocketOptions;
  private phase: 'starting' | 'started' | 'closed' = 'starting';
  private startInfo: MediaSocketStart | undefined;
  private sender: MediaSender | undefined;
  private readonly marks = new Map<string, (outcome: MarkOutcome) => void>();
  private readonly statusWaiters: { resolve: (s: MediaStatus) => void; reject: (e: Error) => void }[] = [];
  private readonly drainWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private startTimer: TimerHandle | undefined;
  private markSequence = 0;
  /** The id of the last MARK_MEDIA written: an ERROR about MARK_MEDIA answers it at once. */
  private lastMarkSent: string | undefined;
  private resolveStarted!: (start: MediaSocketStart) => void;
  private rejectStarted!: (error: Error) => void;
  private resolveClosed!: (result: { code: number }) => void;

  constructor(
    private readonly connection: MediaConnection,
    options: MediaSocketOptions = {},
  ) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.started = new Promise((resolve, reject) => {
      this.resolveStarted = resolve;
      this.rejectStarted = reject;
    });
    this.started.catch(() => {}); // a caller who never awaits it is not told twice
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    connection.onText((text) => this.onText(text));
    connection.onBinary((data) => {
      if (this.phase === 'started') this.audioSubject.next(data);
    });
    connection.onClose((code) => this.onClosed(code));
    const timeout = options.startTimeoutMs ?? 10_000;
    if (timeout > 0) {
      this.startTimer = this.clock.setTimeout(() => {
        this.startTimer = undefined;
        if (this.phase !== 'starting') return;
        this.rejectStarted(new Error(`media socket: no MEDIA_START within ${timeout} ms`));
        connection.close(1000);
      }, timeout);
    }
    if (!connection.open) queueMicrotask(() => this.onClosed(1006));
  }

  /** Audio frames from the server (the raw codec payload of `format`), from MEDIA_START on. */
  get audio$(): Observable<Uint8Array> {
    return this.audioSubject.asObservable();
  }

  /** The control events as they come (hot: MEDIA_START is also `started`); completes when the connection closes. */
  get events$(): Observable<MediaEvent> {
    return this.eventSubject.asObservable();
  }

  /** Text messages that are not known events. */
  get problems$(): Observable<MediaProblem> {
    return this.problemSubject.asObservable();
  }

  get state(): 'starting' | 'started' | 'closed' {
    return this.phase;
  }

  /** MEDIA_START's facts, once it came. */
  get info(): MediaSocketStart | undefined {
    return this.startInfo;
  }

  /** Frames not yet sent to the server (held for pacing or by MEDIA_XOFF). */
  get pendingFrames(): number {
    return this.sender?.queuedFrames ?? 0;
  }

  /** Queues audio in the channel's format for the caller to hear, paced in whole frames. */
  play(audio: Uint8Array): void {
    this.requireStarted('play').play(audio);
  }

  /**
   * Marks the end of the audio queued so far; resolves when the server has played up to it
   * (MEDIA_MARK_PROCESSED), or with why not.
   */
  mark(id = `m${++this.markSequence}`): Promise<MarkOutcome> {
    const sender = this.requireStarted('mark');
    if (this.startInfo?.format.kind === 'passthrough') {
      return Promise.reject(
        new Error(
          `media socket: MARK_MEDIA is not supported for passthrough format ${this.startInfo.format.name}`,
        ),
      );
    }
    this.marks.get(id)?.('flushed');
    const outcome = new Promise<MarkOutcome>((resolve) => this.marks.set(id, resolve));
    sender.mark(id);
    return outcome;
  }

  /** Barge-in: drops the audio not yet played, here and at the server (FLUSH_MEDIA); pending marks end `flushed`. */
  flush(): void {
    const sender = this.requireStarted('flush');
    if (this.startInfo?.format.kind === 'passthrough') {
      throw new Error(
        `media socket: FLUSH_MEDIA is not supported for passthrough format ${this.startInfo.format.name}`,
      );
    }
    sender.clear();
    this.send({ command: 'FLUSH_MEDIA' });
    for (const [id, resolve] of this.marks) {
      this.marks.delete(id);
      resolve('flushed');
    }
  }

  /** The server's playout queue (GET_STATUS). */
  status(): Promise<MediaStatus> {
    this.requireStarted('status');
    return new Promise((resolve, reject) => {
      this.statusWaiters.push({ resolve, reject });
      this.send({ command: 'GET_STATUS' });
    });
  }

  /** Resolves when the server's playout queue is empty (REPORT_QUEUE_DRAINED, one-shot). */
  queueDrained(): Promise<void> {
    this.requireStarted('queueDrained');
    return new Promise((resolve, reject) => {
      this.drainWaiters.push({ resolve, reject });
      this.send({ command: 'REPORT_QUEUE_DRAINED' });
    });
  }

  /** Answers a channel made with `n` in transport_data (it waits Down until then). */
  answer(): void {
    this.requireStarted('answer');
    this.send({ command: 'ANSWER' });
  }

  /** Pauses (PAUSE_MEDIA) or resumes (CONTINUE_MEDIA) the server's playout of queued audio. */
  pausePlayout(paused: boolean): void {
    this.requireStarted('pausePlayout');
    this.send({ command: paused ? 'PAUSE_MEDIA' : 'CONTINUE_MEDIA' });
  }

  /** Which way audio flows (JSON control format only: throws in plain text). */
  setDirection(direction: MediaDirection): void {
    this.requireStarted('setDirection');
    this.send({ command: 'SET_MEDIA_DIRECTION', direction });
  }

  /** Ends the media channel (HANGUP): the server hangs it up and closes with 1000. */
  hangup(): void {
    if (this.phase === 'closed') return;
    if (this.phase === 'starting') {
      this.connection.close(1000);
      return;
    }
    this.send({ command: 'HANGUP' });
  }

  /** Closes the connection (the server then hangs the channel up). */
  close(code = 1000): void {
    this.connection.close(code);
  }

  private send(command: MediaCommand): void {
    if (!this.connection.open || !this.startInfo) return;
    this.connection.sendText(formatMediaCommand(command, this.startInfo.controlFormat));
  }

  private requireStarted(operation: string): MediaSender {
    if (this.phase === 'starting' || !this.sender) {
      throw new Error(`media socket: ${operation} before MEDIA_START (await socket.started first)`);
    }
    if (this.phase === 'closed') throw new Error(`media socket: ${operation} after the connection closed`);
    return this.sender;
  }

  private onText(text: string): void {
    if (this.phase === 'closed') return;
    const parsed = parseMediaEvent(text);
    if (parsed.kind !== 'event') {
      this.problemSubject.next({
        text,
        reason: parsed.kind === 'unknown' ? `unknown event ${parsed.name}` : parsed.reason,
      });
      return;
    }
    const event = parsed.event;
    if (this.phase === 'starting') {
      if (event.event !== 'MEDIA_START') {
        this.problemSubject.next({ text, reason: `${event.event} before MEDIA_START` });
        return;
      }
      this.begin(event, text.trimStart().startsWith('{') ? 'json' : 'plain-text');
    }
    this.eventSubject.next(event);
    this.react(event);
  }

  private begin(start: MediaStart, controlFormat: MediaControlFormat): void {
    this.clock.clearTimeout(this.startTimer);
    this.startTimer = undefined;
    const format: MediaFormat =
      start.optimal_frame_size > 0
        ? (mediaFormat(start.format) ?? {
            kind: 'framed',
            name: start.format,
            frameBytes: start.optimal_frame_size,
            sampleRate: 8000,
            encoding: 'opaque',
          })
        : { kind: 'passthrough', name: start.format };
    this.startInfo = { start, format, controlFormat };
    const frameBytes = start.optimal_frame_size;
    this.sender = new MediaSender({
      clock: this.clock,
      frameBytes,
      ptimeMs: start.ptime > 0 ? start.ptime : PTIME_MS,
      aheadFrames: this.options.aheadFrames ?? 2,
      silence: format.kind === 'framed' ? silentFrame(format) : new Uint8Array(0),
      sendFrame: (frame) => {
        if (this.connection.open) this.connection.sendBinary(frame);
      },
      sendMark: (id) => {
        this.lastMarkSent = id;
        this.send({ command: 'MARK_MEDIA', correlation_id: id });
      },
    });
    this.phase = 'started';
    this.resolveStarted(this.startInfo);
  }

  private react(event: MediaEvent): void {
    switch (event.event) {
      case 'ERROR': {
        const id = this.lastMarkSent;
        if (id === undefined || !event.error_text.startsWith('MARK_MEDIA')) return;
        this.lastMarkSent = undefined;
        const resolve = this.marks.get(id);
        this.marks.delete(id);
        resolve?.('refused');
        return;
      }
      case 'MEDIA_MARK_PROCESSED': {
        const resolve = this.marks.get(event.correlation_id);
        this.marks.delete(event.correlation_id);
        resolve?.('played');
        return;
      }
      case 'MEDIA_XOFF':
        this.sender?.holdOff();
        return;
      case 'MEDIA_XON':
        this.sender?.resume();
        return;
      case 'STATUS':
        this.statusWaiters.shift()?.resolve(event);
        return;
      case 'QUEUE_DRAINED':
        this.drainWaiters.shift()?.resolve();
        return;
      default:
        return;
    }
  }

  private onClosed(code: number): void {
    if (this.phase === 'closed') return;
    const wasStarting = this.phase === 'starting';
    this.phase = 'closed';
    this.clock.clearTimeout(this.startTimer);
    this.startTimer = undefined;
    this.sender?.stop();
    if (wasStarting) this.rejectStarted(new Error(`media socket closed (${code}) before MEDIA_START`));
    for (const [id, resolve] of this.marks) {
      this.marks.delete(id);
      resolve('closed');
    }
    const gone = new Error(`media socket closed (${code})`);
    for (const waiter of this.statusWaiters.splice(0)) waiter.reject(gone);
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(gone);
    this.audioSubject.complete();
    this.eventSubject.complete();
    this.problemSubject.complete();
    this.resolveClosed({ code });
  }
}
