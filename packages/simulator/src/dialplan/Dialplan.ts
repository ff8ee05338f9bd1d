/**
 * The dialplan as the simulator holds it after parsing an `extensions.conf`: contexts of
 * extensions of numbered priorities, each running one application. Read-only once built;
 * one `Dialplan` is shared by every channel of a server.
 */

/** Where something was written: file name as given to the parser and 1-based line (and column). */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column?: number;
}

/** One priority: `exten => 100,2(menu),Playback(beep)` is priority 2, label `menu`. */
export interface DialplanPriority {
  readonly priority: number;
  readonly label?: string;
  /** Application name as written (`Playback`); matched case-insensitively when run. */
  readonly app: string;
  /** Raw argument text between the parentheses, before variable substitution. */
  readonly appData: string;
  readonly position: SourcePosition;
}

/** A hint line (`exten => 100,hint,PJSIP/alice`): kept for completeness, never executed. */
export interface DialplanHint {
  readonly device: string;
  readonly position: SourcePosition;
}

/** One extension of a context: an exact name (`100`, `s`) or a pattern (`_NXX`). */
export interface DialplanExtension {
  /** As written: `_X.`, `555-1234`, `s`. */
  readonly name: string;
  readonly isPattern: boolean;
  readonly priorities: ReadonlyMap<number, DialplanPriority>;
  /** Label -> priority number. */
  readonly labels: ReadonlyMap<string, number>;
  readonly hint?: DialplanHint;
  readonly position: SourcePosition;
}

/** `include => other` inside a context. */
export interface DialplanInclude {
  readonly context: string;
  readonly position: SourcePosition;
}

export interface DialplanContext {
  readonly name: string;
  /** Extensions in match order: exact names first, then patterns from most to least specific. */
  readonly extensions: readonly DialplanExtension[];
  readonly includes: readonly DialplanInclude[];
  readonly position: SourcePosition;
}

/** A problem found while reading a dialplan, with where it is and how to fix it. */
export interface DialplanIssue {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly position: SourcePosition;
}

export interface Dialplan {
  readonly contexts: ReadonlyMap<string, DialplanContext>;
  /** `[globals]` in file order, values already substituted (a global may use an earlier one). */
  readonly globals: ReadonlyMap<string, string>;
  /** `[general]` options as written (`autofallthrough`, `static`, ...). */
  readonly general: ReadonlyMap<string, string>;
  /** Everything the real server would load but the simulator flags (unknown applications, ...). */
  readonly warnings: readonly DialplanIssue[];
}

/** A place in the dialplan. The priority is a number or a label of that extension. */
export interface DialplanLocation {
  readonly context: string;
  readonly exten: string;
  readonly priority: number | string;
}

/** A place in the dialplan with the priority resolved to its number. */
export interface ResolvedLocation {
  readonly context: string;
  readonly exten: string;
  readonly priority: number;
}

/** `location` as the real server prints it in logs: `default,100,2`. */
export function formatLocation(location: DialplanLocation): string {
  return `${location.context},${location.exten},${location.priority}`;
}
