import { ErrorCode, RingflowError } from '../errors/index.ts';

/** Why a frame is not an event. */
export type MalformedFrameReason = 'not-json' | 'not-an-object' | 'missing-type';

/** Longest part of a bad frame kept on the error, so a huge frame cannot flood the logs. */
const MAX_FRAME = 500;

/**
 * A frame on the event stream was not an event: not JSON, not a JSON object, or an object without
 * a non-empty string `type`. The frame is skipped and the stream goes on; this error is reported
 * on `problems$` so it can be logged.
 *
 * @example
 * stream.problems$.subscribe((p) => {
 *   if (p.kind === 'malformed-frame') log.warn({ frame: p.error.frame }, p.error.message);
 * });
 */
export class MalformedFrameError extends RingflowError {
  override name = 'MalformedFrameError';
  readonly reason: MalformedFrameReason;
  /** The start of the frame as text (JSON for frames handed over as objects). */
  readonly frame: string;

  constructor(reason: MalformedFrameReason, frame: string, cause?: unknown) {
    const shown =
      frame.length > MAX_FRAME ? `${frame.slice(0, MAX_FRAME)}... (${frame.length} chars)` : frame;
    super(ErrorCode.PROTOCOL, `${explain(reason)} The frame was skipped: ${shown}`, { cause });
    this.reason = reason;
    this.frame = shown;
  }
}

function explain(reason: MalformedFrameReason): string {
  switch (reason) {
    case 'not-json':
      return 'The server sent a frame that is not JSON; events are JSON objects.';
    case 'not-an-object':
      return 'The server sent JSON that is not an object; events are JSON objects with a "type".';
    case 'missing-type':
      return 'The server sent a JSON object without a string "type"; every event names its type.';
  }
}
