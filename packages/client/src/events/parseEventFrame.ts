import { MalformedFrameError } from './MalformedFrameError.ts';
import type { StreamEvent } from './StreamEvent.ts';

/** The outcome of reading one frame: an event, or why it is not one. */
export type FrameParseResult =
  | { readonly ok: true; readonly event: StreamEvent }
  | { readonly ok: false; readonly error: MalformedFrameError };

/**
 * Reads one frame of the event stream. Text is parsed as JSON; an object (from an in-process
 * transport) is taken as already parsed and is not copied. Any JSON object with a non-empty
 * string `type` is an event: unknown types and unknown fields are kept as they are.
 *
 * @example
 * const r = parseEventFrame('{"type":"StasisStart","args":[],"channel":{"id":"c1"}}');
 * if (r.ok) console.log(r.event.type);
 */
export function parseEventFrame(frame: string | object): FrameParseResult {
  let value: unknown = frame;
  if (typeof frame === 'string') {
    try {
      value = JSON.parse(frame);
    } catch (cause) {
      return { ok: false, error: new MalformedFrameError('not-json', frame, cause) };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: new MalformedFrameError('not-an-object', textOf(frame)) };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || type === '') {
    return { ok: false, error: new MalformedFrameError('missing-type', textOf(frame)) };
  }
  return { ok: true, event: value as StreamEvent };
}

function textOf(frame: string | object): string {
  if (typeof frame === 'string') return frame;
  try {
    return JSON.stringify(frame) ?? String(frame);
  } catch {
    return String(frame);
  }
}
