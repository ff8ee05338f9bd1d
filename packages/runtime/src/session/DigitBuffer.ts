/** Most digits kept when nobody collects them; older ones are dropped first. */
const DEFAULT_CAPACITY = 64;

/**
 * The type-ahead buffer of one call: every DTMF digit the caller presses is kept until a digit
 * collector takes it, so digits pressed during a prompt, or between two steps of a machine, are
 * never lost. Prompts with barge-in watch the buffer without consuming it.
 *
 * @example
 * const digits = new DigitBuffer();
 * digits.push('1'); digits.push('#');
 * digits.take(); // '1'
 */
export class DigitBuffer {
  private readonly digits: string[] = [];
  /** Collectors waiting for a digit; made when the first one waits (most calls have none held). */
  private waiters: Set<() => void> | undefined;
  private readonly capacity: number;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.capacity = capacity;
  }

  push(digit: string): void {
    this.digits.push(digit);
    if (this.digits.length > this.capacity) this.digits.shift();
    if (this.waiters) for (const wake of [...this.waiters]) wake();
  }

  /** Removes and returns the oldest digit, or undefined when none is waiting. */
  take(): string | undefined {
    return this.digits.shift();
  }

  /** The digits waiting, oldest first, without consuming them. */
  peek(): string {
    return this.digits.join('');
  }

  get size(): number {
    return this.digits.length;
  }

  clear(): void {
    this.digits.length = 0;
  }

  /**
   * Resolves once at least one digit is waiting (at once if one already is). Rejects with the
   * signal's reason when `signal` aborts first; the waiter is removed either way.
   */
  whenDigit(signal: AbortSignal): Promise<void> {
    if (this.digits.length > 0) return Promise.resolve();
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      this.waiters ??= new Set();
      const waiters = this.waiters;
      const done = () => {
        waiters.delete(done);
        signal.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        waiters.delete(done);
        reject(signal.reason);
      };
      waiters.add(done);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** Collectors waiting for a digit (leak checks count them). */
  get waiting(): number {
    return this.waiters?.size ?? 0;
  }
}
