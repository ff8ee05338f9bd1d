import type { Dialplan, ResolvedLocation } from '../Dialplan.ts';
import type { DialplanHost, DialplanStep, StasisExit } from '../DialplanHost.ts';

/** One thing the interpreter asked the host to do, in order. */
export type HostCall =
  | { readonly op: 'location'; readonly step: DialplanStep }
  | { readonly op: 'answer' }
  | { readonly op: 'indicate'; readonly indication: string }
  | { readonly op: 'hangup'; readonly cause: number }
  | { readonly op: 'play'; readonly files: readonly string[] }
  | { readonly op: 'wait'; readonly ms: number }
  | { readonly op: 'set'; readonly name: string; readonly value: string }
  | { readonly op: 'setGlobal'; readonly name: string; readonly value: string }
  | { readonly op: 'callerId'; readonly change: { name?: string; number?: string } }
  | { readonly op: 'userEvent'; readonly name: string; readonly fields: Readonly<Record<string, string>> }
  | { readonly op: 'stasis'; readonly app: string; readonly args: readonly string[] }
  | { readonly op: 'log'; readonly level: string; readonly message: string };

/**
 * A `DialplanHost` for tests: records every call, answers from scripted results, never waits
 * (waits and playbacks complete at once unless a hangup is scripted).
 *
 * @example
 * const host = new FakeDialplanHost(dialplan, { stasis: [{ kind: 'continue' }] });
 * await runDialplan(host, { context: 'default', exten: '100', priority: 1 });
 * host.steps() // ['default,100,1 NoOp(default 100)', ...]
 */
export class FakeDialplanHost implements DialplanHost {
  readonly channelName = 'Local/test@sim-00000001;1';
  readonly calls: HostCall[] = [];
  readonly variables = new Map<string, string>();
  readonly globals: Map<string, string>;
  callerId = { name: 'Alice', number: '1000' };
  answered = false;
  hungUp = false;
  private readonly stasisExits: StasisExit[];

  constructor(
    readonly dialplan: Dialplan,
    private readonly script: {
      /** Exits returned by successive `enterStasis` calls (default: hung up). */
      readonly stasis?: readonly StasisExit[];
      /** Result of `play` per first file name (default: finished). */
      readonly play?: Readonly<Record<string, 'finished' | 'failed' | 'hungup'>>;
      /** Hang up (as the caller would) during the n-th wait, 1-based. */
      readonly hangUpDuringWait?: number;
      readonly answered?: boolean;
    } = {},
  ) {
    this.stasisExits = [...(script.stasis ?? [])];
    this.globals = new Map(dialplan.globals);
    this.answered = script.answered ?? false;
  }

  isHungUp(): boolean {
    return this.hungUp;
  }
  isAnswered(): boolean {
    return this.answered;
  }
  /** The far end is silent (waits take no time here: AMD() hears only silence). */
  hearsVoice(): boolean {
    return false;
  }
  setLocation(step: DialplanStep): void {
    this.calls.push({ op: 'location', step });
  }
  async answer(): Promise<void> {
    this.calls.push({ op: 'answer' });
    this.answered = true;
  }
  indicate(indication: 'progress' | 'ringing'): void {
    this.calls.push({ op: 'indicate', indication });
  }
  hangup(cause: number): void {
    this.calls.push({ op: 'hangup', cause });
    this.hungUp = true;
  }
  async play(files: readonly string[]): Promise<'finished' | 'failed' | 'hungup'> {
    this.calls.push({ op: 'play', files });
    const result = this.script.play?.[files[0] ?? ''] ?? 'finished';
    if (result === 'hungup') this.hungUp = true;
    return result;
  }
  private waits = 0;
  async wait(ms: number): Promise<'elapsed' | 'hungup'> {
    this.calls.push({ op: 'wait', ms });
    if (++this.waits === this.script.hangUpDuringWait) {
      this.hungUp = true;
      return 'hungup';
    }
    return 'elapsed';
  }
  getVariable(name: string): string | undefined {
    return this.variables.get(name);
  }
  setVariable(name: string, value: string): void {
    this.calls.push({ op: 'set', name, value });
    this.variables.set(name, value);
  }
  getGlobal(name: string): string | undefined {
    return this.globals.get(name);
  }
  setGlobal(name: string, value: string): void {
    this.calls.push({ op: 'setGlobal', name, value });
    this.globals.set(name, value);
  }
  getCallerId() {
    return this.callerId;
  }
  setCallerId(change: { name?: string; number?: string }): void {
    this.calls.push({ op: 'callerId', change });
    this.callerId = { ...this.callerId, ...change };
  }
  userEvent(name: string, fields: Readonly<Record<string, string>>): void {
    this.calls.push({ op: 'userEvent', name, fields });
  }
  async enterStasis(app: string, args: readonly string[]): Promise<StasisExit> {
    this.calls.push({ op: 'stasis', app, args });
    const exit = this.stasisExits.shift() ?? { kind: 'hungup' };
    if (exit.kind === 'hungup') this.hungUp = true;
    return exit;
  }
  log(level: 'verbose' | 'notice' | 'warning' | 'error', message: string): void {
    this.calls.push({ op: 'log', level, message });
  }

  /** The applications run, as `context,exten,priority App(data)`. */
  steps(): string[] {
    return this.calls.flatMap((c) =>
      c.op === 'location' && c.step.app !== undefined
        ? [`${at(c.step)} ${c.step.app}(${c.step.appData ?? ''})`]
        : [],
    );
  }

  /** Messages logged at a level. */
  logs(level: string): string[] {
    return this.calls.flatMap((c) => (c.op === 'log' && c.level === level ? [c.message] : []));
  }
}

function at(l: ResolvedLocation): string {
  return `${l.context},${l.exten},${l.priority}`;
}
