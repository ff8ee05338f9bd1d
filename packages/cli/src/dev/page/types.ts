/** What the console's server tells the page (GET api/flows, the feed). Shapes only. */

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

/** One line of a call's timeline (see ConsoleFeed.ts). */
export interface TimelineEntry {
  readonly at: number;
  readonly call: string;
  readonly kind: string;
  readonly text: string;
}

/** A message of the feed (server-sent events). */
export type FeedMessage =
  | { readonly type: 'flows'; readonly flows: FlowDescription[] }
  | { readonly type: 'call'; readonly id: string; readonly flow?: string }
  | { readonly type: 'state'; readonly call: string; readonly state: string }
  | { readonly type: 'ended'; readonly call: string; readonly outcome: string }
  | { readonly type: 'timeline'; readonly entry: TimelineEntry }
  | {
      readonly type: 'farEnd';
      readonly id: string;
      readonly name?: string;
      readonly ringing?: boolean;
      readonly answered?: boolean;
      readonly gone?: boolean;
    };

/** How one scenario went (see flowScenarios.ts). */
export interface ScenarioResult {
  readonly scenario: string;
  readonly passed: boolean;
  readonly failure?: { readonly step: string; readonly message: string };
  readonly timeline: readonly string[];
}

/** A scenario file beside a flow (see flowScenarios.ts). */
export interface ScenarioFile {
  readonly flow: string;
  readonly file: string;
  readonly scenarios: readonly string[];
  readonly problems: readonly string[];
}

/** A call saved as a test: written beside its flow (dev) or offered as a download (live). */
export interface SavedCall {
  /** `ringflow dev`: the file written. */
  readonly file?: string;
  /** The live view: the name to download it under. */
  readonly fileName?: string;
  readonly yaml: string;
  readonly replay?: ScenarioResult;
}
