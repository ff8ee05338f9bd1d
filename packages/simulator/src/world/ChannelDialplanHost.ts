import type { Dialplan } from '../dialplan/Dialplan.ts';
import type { DialplanHost, DialplanStep, StasisExit } from '../dialplan/DialplanHost.ts';
import { isTalking } from './audioFlow.ts';
import { announceDial, answerChannel, dialFields, hangupChannel } from './channelLifecycle.ts';
import { readChannelFunction, writeChannelFunction } from './channelFunctions.ts';
import type { SimChannel } from './SimChannel.ts';
import { broadcastChannel, endBroadcast } from './broadcastOffers.ts';
import { enterStasis } from './stasis.ts';
import type { World } from './World.ts';

/**
 * The dialplan interpreter's view of one channel: every step it takes becomes the real
 * server's behaviour on that channel (snapshot updates, ChannelDialplan, state changes,
 * variables, user events, Stasis). Waiting goes through the World's clock; a hangup wakes it.
 */
export class ChannelDialplanHost implements DialplanHost {
  constructor(
    private readonly world: World,
    private readonly ch: SimChannel,
  ) {}

  get dialplan(): Dialplan {
    return this.world.services.dialplan;
  }

  get channelName(): string {
    return this.ch.name;
  }

  isHungUp(): boolean {
    return this.ch.hangingUp || this.ch.destroyed;
  }

  isAnswered(): boolean {
    return this.ch.state === 'Up';
  }

  hearsVoice(): boolean {
    return isTalking(this.world, this.ch);
  }

  setLocation(step: DialplanStep): void {
    const ch = this.ch;
    ch.context = step.context;
    ch.exten = step.exten;
    ch.priority = step.priority;
    if (step.app === undefined) {
      // Nothing runs at a missing place: the snapshot moves, no ChannelDialplan is due.
      ch.pubContext = ch.context;
      ch.pubExten = ch.exten;
      ch.pubPriority = ch.priority;
      return;
    }
    ch.setApp(step.app, step.appData ?? '');
    this.world.channelChanged(ch);
  }

  async answer(): Promise<void> {
    answerChannel(this.world, this.ch);
  }

  indicate(indication: 'progress' | 'ringing'): void {
    const leg = this.ch.half === 2 ? this.ch.peer : undefined;
    if (!leg?.dialing) return;
    announceDial(this.world, leg);
    if (indication === 'ringing' && leg.state !== 'Ringing' && leg.state !== 'Up') {
      leg.state = 'Ringing';
      this.world.channelChanged(leg);
    }
    this.world.publish('Dial', dialFields(leg, indication === 'ringing' ? 'RINGING' : 'PROGRESS'), {
      channels: [leg],
    });
  }

  hangup(cause: number): void {
    hangupChannel(this.world, this.ch, cause, 'dialplan');
  }

  async play(files: readonly string[]): Promise<'finished' | 'failed' | 'hungup'> {
    for (const file of files) {
      const ms = this.world.services.sounds.durationOf(file, this.ch.language);
      if (ms === undefined) return 'failed';
      if ((await this.wait(ms)) === 'hungup') return 'hungup';
    }
    return 'finished';
  }

  wait(ms: number): Promise<'elapsed' | 'hungup'> {
    if (this.isHungUp()) return Promise.resolve('hungup');
    const { clock } = this.world;
    return new Promise((resolve) => {
      const timer = clock.setTimeout(() => {
        this.ch.wake = undefined;
        resolve('elapsed');
      }, ms);
      this.ch.wake = () => {
        clock.clearTimeout(timer);
        resolve('hungup');
      };
    });
  }

  getVariable(name: string): string | undefined {
    return this.ch.getVar(name);
  }

  setVariable(name: string, value: string): void {
    this.world.setChannelVar(this.ch, name, value);
  }

  getGlobal(name: string): string | undefined {
    return this.world.globals.get(name);
  }

  setGlobal(name: string, value: string): void {
    this.world.setGlobalVar(name, value);
  }

  getCallerId(): { readonly name: string; readonly number: string } {
    return { name: this.ch.callerName, number: this.ch.callerNumber };
  }

  setCallerId(change: { readonly name?: string; readonly number?: string }): void {
    if (change.name !== undefined) this.ch.callerName = change.name;
    if (change.number !== undefined) this.ch.callerNumber = change.number;
    this.world.channelChanged(this.ch);
  }

  readFunction(name: string, args: string): string | undefined {
    return readChannelFunction(this.world, this.ch, name.toUpperCase(), args);
  }

  writeFunction(name: string, args: string, value: string): boolean {
    return writeChannelFunction(this.world, this.ch, name.toUpperCase(), args, value);
  }

  userEvent(name: string, fields: Readonly<Record<string, string>>): void {
    this.world.publishChannel('ChannelUserevent', this.ch, {
      eventname: name,
      userevent: { eventname: name, ...fields },
    });
  }

  enterStasis(app: string, args: readonly string[]): Promise<StasisExit> {
    if (this.isHungUp()) return Promise.resolve({ kind: 'hungup' });
    const openPerCall = this.world.perCallApps.get(app);
    if (openPerCall) {
      // The call's own connection is dialled first; without one the app does not exist (failed).
      return openPerCall(this.ch).then((registered) =>
        this.isHungUp() ? { kind: 'hungup' as const } : this.enterRegistered(registered ?? app, args),
      );
    }
    return this.enterRegistered(app, args);
  }

  broadcast(request: {
    readonly timeoutMs: number;
    readonly filter: string | undefined;
    readonly notifyClaimed: boolean;
  }): Promise<string | undefined | 'hungup'> {
    if (this.isHungUp()) return Promise.resolve('hungup');
    return broadcastChannel(this.world, this.ch, request);
  }

  endBroadcast(): void {
    endBroadcast(this.world, this.ch.id);
  }

  private enterRegistered(app: string, args: readonly string[]): Promise<StasisExit> {
    return new Promise((resolve) => {
      if (!enterStasis(this.world, this.ch, app, args)) resolve({ kind: 'failed' });
      else this.ch.stasisExit = resolve;
    });
  }

  log(level: 'verbose' | 'notice' | 'warning' | 'error', message: string): void {
    this.world.log(level, message);
  }
}
