/** What the console's server tells the page: the feed's messages are declared once, in ../feedMessages.ts. */

export type {
  AgentTurn,
  CallEnd,
  CallSound,
  ClockState,
  FeedMessage,
  FlowDescription,
  FlowStep,
  TimelineEntry,
  TimelineKind,
} from '../feedMessages.ts';
export { ANY_STATE } from '../feedMessages.ts';

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
