/**
 * How the far end of a dialled endpoint behaves: answers (after 2 s by default, or after
 * `answerAfterMs`), is busy (hangup cause 17), never answers (the dial step's timeout decides), or
 * cannot be reached (cause 27, destination out of order).
 */
export type FarEnd = 'answer' | 'busy' | 'noAnswer' | 'unreachable' | { readonly answerAfterMs: number };

/**
 * One behaviour for every call to an endpoint, or one per successive call (the last repeats):
 * `['busy', 'answer']` is busy at the first attempt and answers every later one.
 */
export type FarEndBehaviour = FarEnd | readonly FarEnd[];

/** The call a flow test places, and the world around it. Every field has a default. */
export interface TestCallOptions {
  /** Caller number (`call.caller.number`); default `5551234`. */
  readonly caller?: string;
  /** Caller name (`call.caller.name`); default empty. */
  readonly callerName?: string;
  /** The number dialled (`call.extension`); default `100`. */
  readonly extension?: string;
  /** Channel language (`call.language`, picks the prompt catalogue); default: the server's (`en`). */
  readonly language?: string;
  /**
   * Channel variables set before the call enters the flow (by the dialplan, with Set). The flow
   * reads them with `getChannelVar`, and as `call.variables.<name>` (as if ari.conf `channelvars`
   * listed them).
   */
  readonly variables?: Readonly<Record<string, string>>;
  /** Arguments of `Stasis(app, args...)` (`call.args`). */
  readonly args?: readonly string[];
  /** Flow inputs (`input.<name>`); declared defaults fill the rest. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /**
   * When the call is placed, on the virtual clock (ms since the epoch, a Date or ISO text);
   * default Monday 2026-01-05 10:00 UTC (a working morning in Europe).
   */
  readonly startAt?: number | string | Date;
  /** The ARI application name the flow runs as; default `flow-test`. */
  readonly app?: string;
  /** The caller's channel id; default `c1`. */
  readonly channelId?: string;
  /** Extra `extensions.conf` text: contexts the flow sends calls to with `continue`. */
  readonly dialplan?: string;
  /**
   * Behaviour of dialled endpoints by `tech/resource` (`PJSIP/operator`); others answer after 2 s.
   * A list gives one behaviour per successive call to that endpoint, the last one repeating.
   */
  readonly farEnds?: Readonly<Record<string, FarEndBehaviour>>;
  /** HTTP for the flow's `http` steps (tests pass a fake); default the global fetch. */
  readonly fetch?: typeof fetch;
}
