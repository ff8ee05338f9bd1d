import type { Dialplan, DialplanLocation, ResolvedLocation } from '../Dialplan.ts';
import type { DialplanHost } from '../DialplanHost.ts';

/** What an application gets when it runs for one channel. */
export interface ApplicationContext {
  readonly host: DialplanHost;
  readonly dialplan: Dialplan;
  /** Where it runs. */
  readonly location: ResolvedLocation;
  /** The argument text with variables already substituted. */
  readonly data: string;
  /** Reports a problem with this priority (logged by the host with the dialplan position). */
  warn(message: string): void;
  /**
   * Tells the interpreter that the application let time pass (a wait elapsed, a file played,
   * the ARI application handed the channel back). A run of applications that never do is a
   * loop, which the interpreter ends instead of spinning forever.
   */
  tookTime(): void;
}

/** What the interpreter does after an application returns. */
export type ApplicationResult =
  /** Go on with the next priority. */
  | { readonly kind: 'next' }
  /** Jump (Goto, GotoIf): the priority may be a label, resolved by the interpreter. */
  | { readonly kind: 'goto'; readonly target: DialplanLocation }
  /** End the call with this cause (Hangup()). */
  | { readonly kind: 'hangup'; readonly cause: number }
  /** The channel hung up while the application ran. */
  | { readonly kind: 'hungup' }
  /** The application failed in a way that ends the call, as a real server does on error. */
  | { readonly kind: 'failed'; readonly message: string };

/** One dialplan application (Answer, Playback, ...). */
export interface DialplanApplication {
  /** Canonical name, as reported in ChannelDialplan's `dialplan_app`. */
  readonly name: string;
  run(context: ApplicationContext): Promise<ApplicationResult> | ApplicationResult;
}

export const NEXT: ApplicationResult = { kind: 'next' };
export const HUNGUP: ApplicationResult = { kind: 'hungup' };
