import { findApplication } from './applications/index.ts';
import type { ApplicationResult } from './applications/DialplanApplication.ts';
import type { DialplanLocation, DialplanPriority, ResolvedLocation } from './Dialplan.ts';
import { formatLocation } from './Dialplan.ts';
import type { DialplanEnd, DialplanEndReason, DialplanHost } from './DialplanHost.ts';
import { findPriority } from './findPriority.ts';
import { substituteVariables } from './substituteVariables.ts';
import { createVariableScope } from './variableScope.ts';

export interface RunDialplanOptions {
  /**
   * The channel is new (an inbound call, an originate into the dialplan): when the start does
   * not exist, fall back to extension `s`, then to context `default`, as the real server does
   * when it starts a channel. A channel continuing from Stasis does not fall back.
   */
  readonly newChannel?: boolean;
}

/** Cause passed to `hangup` when the dialplan simply ends: the real server reports 0 (unknown). */
const CAUSE_UNKNOWN = 0;

/**
 * Applications in a row that let no time pass (see ApplicationContext.tookTime) before the run
 * is declared a loop: `same => n,Goto(1)` would otherwise spin forever and starve every other
 * channel and the clock, since the simulator runs on one thread.
 */
const MAX_INSTANT_STEPS = 10_000;

/**
 * Runs the dialplan for one channel from `start` until the channel leaves it, as the real
 * server's PBX loop does:
 * - before each application, `host.setLocation` (the core emits ChannelDialplan);
 * - arguments are substituted (`${...}`, `$[...]`) just before the application runs;
 * - after an application, the next priority; Goto/GotoIf/Stasis `continue` jump;
 * - running off the end of an extension ends the call (the real server's autofallthrough);
 * - a missing context or extension (after Goto or continue) ends the call; when the context
 *   has an `i` extension, the channel goes there instead with INVALID_EXTEN set;
 * - an application the simulator does not implement is reported and ends the call;
 * - when the call ends (for any reason) and the context has an `h` extension, it runs.
 * Resolves (never rejects for call events) with why and where it ended.
 *
 * @example
 * const end = await runDialplan(host, { context: 'from-callers', exten: '5551234', priority: 1 });
 * // end.reason === 'hungup' when the caller hung up while in Stasis(ringflow-demo,5551234)
 */
export async function runDialplan(
  host: DialplanHost,
  start: DialplanLocation,
  options: RunDialplanOptions = {},
): Promise<DialplanEnd> {
  const run = new DialplanRun(host);
  let location = run.resolveStart(start, options.newChannel === true);
  if (!location) {
    const where = { context: start.context, exten: start.exten, priority: 1 };
    host.log('warning', `Label '${start.priority}' not found at ${start.context},${start.exten}`);
    host.setLocation(where);
    return run.finish('no-such-extension', where, CAUSE_UNKNOWN);
  }
  for (;;) {
    const step = await run.step(location, false);
    if ('end' in step) return run.finish(step.end, step.location, step.cause);
    location = step.next;
  }
}

type StepOutcome =
  | { readonly next: ResolvedLocation }
  | { readonly end: DialplanEndReason; readonly location: ResolvedLocation; readonly cause?: number };

class DialplanRun {
  private instantSteps = 0;

  constructor(private readonly host: DialplanHost) {}

  resolveStart(start: DialplanLocation, newChannel: boolean): ResolvedLocation | undefined {
    const { dialplan } = this.host;
    const resolved = this.resolve(start);
    if (
      !newChannel ||
      (resolved &&
        findPriority(dialplan, resolved.context, resolved.exten, resolved.priority).kind === 'found')
    ) {
      return resolved;
    }
    const s = { context: start.context, exten: 's', priority: 1 };
    if (findPriority(dialplan, s.context, 's', 1).kind === 'found') return s;
    return { context: 'default', exten: 's', priority: 1 };
  }

  /** A location with its label turned into a number; undefined when the label does not exist. */
  resolve(location: DialplanLocation): ResolvedLocation | undefined {
    if (typeof location.priority === 'number') return location as ResolvedLocation;
    const found = findPriority(this.host.dialplan, location.context, location.exten, location.priority);
    return found.kind === 'found'
      ? { context: location.context, exten: location.exten, priority: found.priority.priority }
      : undefined;
  }

  /** Runs the priority at `location`; says where to go next or why the call ends. */
  async step(location: ResolvedLocation, inHangupHandler: boolean): Promise<StepOutcome> {
    const { host } = this;
    if (!inHangupHandler && host.isHungUp()) return { end: 'hungup', location };
    const found = findPriority(host.dialplan, location.context, location.exten, location.priority);
    if (found.kind !== 'found') return this.missing(location, found.kind === 'no-priority', inHangupHandler);

    const { priority } = found;
    const app = findApplication(priority.app);
    const warn = (message: string) => host.log('warning', `${describe(location, priority)}: ${message}`);
    if (!app) {
      host.log(
        'warning',
        `No application '${priority.app}' for extension (${location.context}, ${location.exten}, ${location.priority}) ` +
          `(${priority.position.file}:${priority.position.line}): the simulator does not implement it; hanging up`,
      );
      return { end: 'unknown-application', location, cause: CAUSE_UNKNOWN };
    }
    const data = substituteVariables(priority.appData, createVariableScope(host, location, warn));
    host.setLocation({ ...location, app: app.name, appData: data });

    const instantBefore = ++this.instantSteps;
    const tookTime = () => {
      this.instantSteps = 0;
    };
    const result = await app.run({ host, dialplan: host.dialplan, location, data, warn, tookTime });
    if (this.instantSteps >= instantBefore && this.instantSteps > MAX_INSTANT_STEPS) {
      host.log(
        'error',
        `${describe(location, priority)}: ${MAX_INSTANT_STEPS} applications ran without letting any time pass; ` +
          'the dialplan loops (e.g. a Goto back to itself). Hanging up',
      );
      return { end: 'application-failed', location, cause: CAUSE_UNKNOWN };
    }
    return this.after(result, location, priority, warn);
  }

  private after(
    result: ApplicationResult,
    location: ResolvedLocation,
    priority: DialplanPriority,
    warn: (message: string) => void,
  ): StepOutcome {
    switch (result.kind) {
      case 'next':
        return { next: { ...location, priority: location.priority + 1 } };
      case 'goto': {
        const target = this.resolve(result.target);
        if (!target) {
          warn(
            `Priority '${result.target.priority}' must be a number > 0, or valid label (in ${formatLocation(result.target)})`,
          );
          return { end: 'application-failed', location, cause: CAUSE_UNKNOWN };
        }
        return { next: target };
      }
      case 'hangup':
        return { end: 'hangup-application', location, cause: result.cause };
      case 'hungup':
        return { end: 'hungup', location };
      case 'failed':
        warn(`${result.message} (${priority.app} ends the call)`);
        return { end: 'application-failed', location, cause: CAUSE_UNKNOWN };
    }
  }

  /** Nothing at `location`: end of the extension, or an invalid extension (the `i` extension). */
  private missing(
    location: ResolvedLocation,
    extensionExists: boolean,
    inHangupHandler: boolean,
  ): StepOutcome {
    const { host } = this;
    const { dialplan } = host;
    const exists =
      extensionExists && findPriority(dialplan, location.context, location.exten, 1).kind === 'found';
    if (exists) return { end: 'end-of-extension', location, cause: CAUSE_UNKNOWN };
    if (
      !inHangupHandler &&
      location.exten !== 'i' &&
      findPriority(dialplan, location.context, 'i', 1).kind === 'found'
    ) {
      host.setVariable('INVALID_EXTEN', location.exten);
      return { next: { context: location.context, exten: 'i', priority: 1 } };
    }
    if (!inHangupHandler) {
      host.log(
        'warning',
        `Channel '${host.channelName}' sent to invalid extension but no invalid handler: ` +
          `context,exten,priority=${formatLocation(location)}`,
      );
      host.setLocation(location);
    }
    return { end: 'no-such-extension', location, cause: CAUSE_UNKNOWN };
  }

  /** Ends the call: requests the hangup when the channel is still up, then runs `h` if present. */
  async finish(reason: DialplanEndReason, location: ResolvedLocation, cause?: number): Promise<DialplanEnd> {
    const { host } = this;
    const requested = !host.isHungUp() && cause !== undefined;
    if (requested) host.hangup(cause);
    if (location.exten !== 'h' && findPriority(host.dialplan, location.context, 'h', 1).kind === 'found') {
      let at: ResolvedLocation = { context: location.context, exten: 'h', priority: 1 };
      for (;;) {
        const step = await this.step(at, true);
        if ('end' in step) break;
        at = step.next;
      }
    }
    return { reason, ...(requested ? { cause } : {}), location };
  }
}

function describe(location: ResolvedLocation, priority: DialplanPriority): string {
  return `${priority.app}@${formatLocation(location)} (${priority.position.file}:${priority.position.line})`;
}
