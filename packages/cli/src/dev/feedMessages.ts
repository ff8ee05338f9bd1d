/**
 * The one contract between the console's server (ringflow dev, the live view) and its page: what
 * the feed (server-sent events at `api/feed`) and `api/flows` carry. Shapes only, no Node and no
 * DOM: the server's code and the page's bundle both import it.
 */

/** What a timeline line tells. */
export type TimelineKind =
  | 'event'
  | 'request'
  | 'state'
  | 'end'
  | 'error'
  | 'vars'
  | 'userEvent'
  | 'failure'
  | 'timer';

/** One line of a call's timeline. */
export interface TimelineEntry {
  /** When (ms since the epoch). */
  readonly at: number;
  /** The call it belongs to (a far end's lines belong to the call that dialled it). */
  readonly call: string;
  readonly kind: TimelineKind;
  readonly text: string;
}

/** How a call ended, in the words of a scenario's `end: { status, by }`. */
export interface CallEnd {
  readonly status: 'completed' | 'recovered' | 'hungUp' | 'continued' | 'failed';
  readonly by: 'caller' | 'flow' | 'dialplan' | 'server';
}

/** A flow as the page draws it (see describeFlows.ts). */
export interface FlowDescription {
  readonly name: string;
  readonly file: string;
  readonly graph: {
    readonly start: string;
    readonly states: readonly string[];
    readonly transitions: readonly {
      readonly from: string;
      readonly to: string;
      readonly labels: readonly string[];
    }[];
  };
  /** Each state's steps, with where they are written (`file:line:col`). */
  readonly states: Readonly<Record<string, readonly { readonly at: string; readonly step: unknown }[]>>;
  readonly error: string | null;
}

/** A message of the feed. */
export type FeedMessage =
  | { readonly type: 'flows'; readonly flows: readonly FlowDescription[] }
  /** A call started (`at`), in the flow `flow`. */
  | { readonly type: 'call'; readonly id: string; readonly flow?: string; readonly at?: number }
  | { readonly type: 'state'; readonly call: string; readonly state: string }
  /** A call ended (`at`): `outcome` as the runtime says it, `end` as a scenario would. */
  | {
      readonly type: 'ended';
      readonly call: string;
      readonly outcome: string;
      readonly at?: number;
      readonly end?: CallEnd;
    }
  | { readonly type: 'timeline'; readonly entry: TimelineEntry }
  /** A far end a call's flow dialled (`call`): ringing, answered, or gone. */
  | {
      readonly type: 'farEnd';
      readonly id: string;
      readonly call?: string;
      readonly name?: string;
      readonly ringing?: boolean;
      readonly answered?: boolean;
      readonly gone?: boolean;
    };
