import type { Dialplan, ResolvedLocation } from './Dialplan.ts';

/**
 * The contract between the dialplan interpreter and the simulator core, for ONE channel.
 *
 * The core implements it for each channel that enters the dialplan and calls
 * `runDialplan(host, start)`. The interpreter decides what runs next (as the real server's PBX
 * loop does); the host carries it out on the channel (state, media, events, variables).
 * The interpreter keeps no timers and no state outside one `runDialplan` call: all waiting goes
 * through the host's promises, which the core settles on its Clock.
 *
 * Rules the core must keep:
 * - Promises (`answer`, `play`, `wait`, `enterStasis`) settle when the operation is over or the
 *   channel is hung up, whichever comes first; they never reject for a hangup.
 * - `hangup` is a soft hangup request (the real server's ChannelHangupRequest): the interpreter
 *   may still run the `h` extension afterwards. The channel is destroyed by the core once
 *   `runDialplan` has settled, never by the interpreter.
 */
export interface DialplanHost {
  /** The dialplan in force (shared by all channels). */
  readonly dialplan: Dialplan;
  /** Channel name for log messages: `Local/100@default-00000001;1`. */
  readonly channelName: string;

  /** True once the channel has been hung up (by the caller, ARI, or `hangup`). */
  isHungUp(): boolean;
  /** True when the channel is answered (state `Up`). */
  isAnswered(): boolean;
  /** True while sound comes from the channel's side (its far end talking): what AMD() listens to. */
  hearsVoice(): boolean;

  /**
   * Called before each application runs, with the substituted argument text: the core
   * updates the snapshot's `dialplan` and emits ChannelDialplan (`dialplan_app`,
   * `dialplan_app_data`). When `app` is undefined, the channel moved to a place with nothing to
   * run (a missing context/extension): update context/exten/priority and keep the previous
   * `app_name`/`app_data`, as the real server's snapshot does; no ChannelDialplan is due.
   */
  setLocation(step: DialplanStep): void;

  /** Answers the channel (no-op when already up). */
  answer(): Promise<void>;
  /** Sends an early indication without answering (Progress(), Ringing()). */
  indicate(indication: 'progress' | 'ringing'): void;
  /** Requests hangup with a Q.850 cause (16 normal clearing, 17 busy, ...). */
  hangup(cause: number): void;

  /**
   * Plays sound files one after the other (names as in `Playback(hello-world&beep)`, no
   * `sound:` prefix). Dialplan playback raises no ARI Playback events on a real server.
   * 'failed' when a file does not exist; 'hungup' when the channel hung up meanwhile.
   */
  play(files: readonly string[]): Promise<'finished' | 'failed' | 'hungup'>;
  /** Waits on the core's clock; 'hungup' as soon as the channel hangs up. */
  wait(ms: number): Promise<'elapsed' | 'hungup'>;

  /** A channel variable; `undefined` when not set. */
  getVariable(name: string): string | undefined;
  /** Sets a channel variable (the core emits ChannelVarset). */
  setVariable(name: string, value: string): void;
  getGlobal(name: string): string | undefined;
  setGlobal(name: string, value: string): void;
  getCallerId(): { readonly name: string; readonly number: string };
  /** Changes the caller id (the core emits ChannelCallerId); only the given parts change. */
  setCallerId(change: { readonly name?: string; readonly number?: string }): void;
  /**
   * Reads a dialplan function the interpreter does not know itself (`CHANNEL(language)`).
   * Optional: without it such functions read as empty, with a warning.
   */
  readFunction?(name: string, args: string): string | undefined;
  /** Writes such a function; returns false when it does not exist. Optional like `readFunction`. */
  writeFunction?(name: string, args: string, value: string): boolean;

  /** UserEvent(): the core emits ChannelUserevent with `eventname` and these fields. */
  userEvent(name: string, fields: Readonly<Record<string, string>>): void;

  /**
   * Offers the channel to applications (`StasisBroadcast()`, a CallBroadcast event) and waits
   * up to `timeoutMs` for one to claim it: the winner, undefined (nobody in time) or `hungup`.
   */
  broadcast?(request: {
    readonly timeoutMs: number;
    readonly filter: string | undefined;
    readonly notifyClaimed: boolean;
  }): Promise<string | undefined | 'hungup'>;

  /** Withdraws the channel's offer: claims now get 404. */
  endBroadcast?(): void;

  /**
   * Stasis(app, args...): hands the channel to an ARI application (StasisStart with `args`,
   * STASISSTATUS handling) and settles when the channel leaves it. See `StasisExit`.
   */
  enterStasis(app: string, args: readonly string[]): Promise<StasisExit>;

  /** Diagnostics in the real server's words (Verbose(), Log(), warnings about the dialplan). */
  log(level: 'verbose' | 'notice' | 'warning' | 'error', message: string): void;
}

/** Where the channel is and what it runs there; see `DialplanHost.setLocation`. */
export interface DialplanStep extends ResolvedLocation {
  /** Canonical application name (`Playback` even when written `playback`). */
  readonly app?: string;
  readonly appData?: string;
}

/**
 * How a channel left its ARI application.
 * - `hungup`: the channel was hung up while in the application;
 * - `continue`: the application called `continue`; `target` is where to go, already resolved
 *   by the core with `resolveContinueTarget` (it needs the answer synchronously for the 404 on
 *   an unknown label). Without `target`, the dialplan goes on at the next priority;
 * - `failed`: the application was not registered (STASISSTATUS=FAILED on a real server); the
 *   dialplan goes on at the next priority.
 */
export type StasisExit =
  | { readonly kind: 'hungup' }
  | { readonly kind: 'continue'; readonly target?: ResolvedLocation }
  | { readonly kind: 'failed' };

/** Why the dialplan stopped for a channel. */
export type DialplanEndReason =
  /** The Hangup() application ran. */
  | 'hangup-application'
  /** The channel was hung up while in the dialplan or in Stasis. */
  | 'hungup'
  /** The extension has no next priority (the real server's "autofallthrough"). */
  | 'end-of-extension'
  /** The context or extension does not exist (after Goto, continue, or at the start). */
  | 'no-such-extension'
  /** The priority names an application the simulator does not implement. */
  | 'unknown-application'
  /** An application failed in a way that ends the call (Goto to an unknown label, ...). */
  | 'application-failed';

/** What `runDialplan` resolves with. */
export interface DialplanEnd {
  readonly reason: DialplanEndReason;
  /** The Q.850 cause the interpreter requested with `hangup` (absent when already hung up). */
  readonly cause?: number;
  /** Where the channel was when it stopped. */
  readonly location: ResolvedLocation;
}
