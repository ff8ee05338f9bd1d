import { DIGIT_TIMEOUT_MS, MAX_DIGITS, PROMPT_1, PROMPT_2 } from './ivrWorkload.ts';

/** The requests the hand-written IVR sends; how they reach a server is the caller's business. */
export interface IvrRequests {
  answer(channelId: string): Promise<void>;
  play(channelId: string, media: string, playbackId: string): void;
  /** Stops a prompt; a prompt that had just ended by itself is not an error. */
  stopPlayback(playbackId: string): void;
  hangup(channelId: string): void;
}

/**
 * One call of the benchmark IVR written by hand, with no library: a plain object with a stage
 * and a switch, as a bare ARI application would keep it. Barge-in on prompt 1 (a key stops it
 * and counts), MAX_DIGITS digits with first/inter-digit timeouts, prompt 2, hang up. Prompt playback ids
 * are `<channel>-p1` and `<channel>-p2`. Shared by the bare application (`bench/apps/bareApp.ts`,
 * on ws + undici) and the plain variant of `bench/flow-machine.ts` (stubbed requests).
 */
export class BareIvrCall {
  private stage: 'answering' | 'prompt1' | 'digits' | 'prompt2' | 'leaving' = 'answering';
  private digits = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly id: string,
    private readonly requests: IvrRequests,
  ) {}

  /** The call entered the application: answer, then prompt 1. */
  start(): void {
    void this.requests.answer(this.id).then(() => {
      if (this.stage !== 'answering') return;
      this.stage = 'prompt1';
      this.requests.play(this.id, PROMPT_1, `${this.id}-p1`);
    });
  }

  digit(digit: string): void {
    if (this.stage === 'prompt1') {
      // Barge-in: the key stops prompt 1 and counts.
      this.requests.stopPlayback(`${this.id}-p1`);
      this.addDigit(digit);
    } else if (this.stage === 'digits') this.addDigit(digit);
  }

  playbackFinished(playbackId: string): void {
    if (this.stage === 'prompt1' && playbackId.endsWith('-p1')) {
      this.stage = 'digits';
      this.waitForDigit();
    } else if (this.stage === 'prompt2' && playbackId.endsWith('-p2')) {
      this.stage = 'leaving';
      this.requests.hangup(this.id);
    }
  }

  /** The call left the application. */
  end(): void {
    clearTimeout(this.timer);
  }

  private addDigit(digit: string): void {
    this.digits += digit;
    if (this.digits.length >= MAX_DIGITS) this.playPrompt2();
    else this.waitForDigit();
  }

  /** Waits for the next digit; silence for the timeout ends collection (prompt 2 all the same). */
  private waitForDigit(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.playPrompt2(), DIGIT_TIMEOUT_MS);
  }

  private playPrompt2(): void {
    clearTimeout(this.timer);
    this.stage = 'prompt2';
    this.requests.play(this.id, PROMPT_2, `${this.id}-p2`);
  }
}
