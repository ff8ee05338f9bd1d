import type {
  CallEnd,
  CallSound,
  ClockState,
  FeedMessage,
  FlowDescription,
  FlowStep,
  TimelineEntry,
} from './types.ts';

/** A call as the page follows it. */
export interface CallView {
  readonly id: string;
  flow: string;
  /** The states it entered, in order. */
  readonly path: string[];
  /** The arrows it took, as the server told them: from `via` (a state, or `*`: any state) to `to`. */
  readonly edges: { readonly via: string; readonly to: string }[];
  /** What each event did to its flow, oldest first. */
  readonly steps: FlowStep[];
  state: string | null;
  /** When it started and ended (ms since the epoch), as the server saw it. */
  startedAt: number | null;
  endedAt: number | null;
  /** How it ended, as the runtime says it (null while it goes on). */
  ended: string | null;
  /** How it ended, in a scenario's words. */
  end: CallEnd | null;
  /** Whether an agent step talks with its bot now (typed words are spoken to it). */
  agent: boolean;
  /** Whether that bot speaks the audio protocol (the microphone's voice is carried to it). */
  agentAudio: boolean;
}

/** A far end a call's flow dialled, as the page lists it (under its call). */
export interface FarEndView {
  readonly name: string;
  /** The call that dialled it. */
  readonly call: string | null;
  readonly answered: boolean;
}

/**
 * What the page knows, built from the feed's messages (the history first, then each as it comes).
 * Mutable, with a version that changes on each message: the feed brings thousands of messages when
 * a page opens, and copying the timeline for each would cost more than it tells.
 */
export class ConsoleStore {
  flows: readonly FlowDescription[] = [];
  /** Whether the flows arrived (the page shows it is loading until then). */
  loaded = false;
  readonly calls = new Map<string, CallView>();
  readonly lines: TimelineEntry[] = [];
  readonly farEnds = new Map<string, FarEndView>();
  /** The sounds the channels hear now, by id (a playback's media, a tone). */
  readonly sounds = new Map<string, CallSound>();
  /** The server's simulated time (`ringflow dev`), and when the page heard of it (its own clock). */
  clock: (ClockState & { readonly heardAt: number }) | null = null;
  version = 0;

  /** The server's time now, as well as the page can tell (paused: where it stands). */
  serverNow(pageNow: number = Date.now()): number {
    const clock = this.clock;
    if (!clock) return pageNow;
    return clock.paused ? clock.now : clock.now + (pageNow - clock.heardAt);
  }

  /** The call `id`, made when first heard of (in the flow `flow`). Far ends are not calls. */
  call(id: string, flow: string): CallView | undefined {
    if (this.farEnds.has(id)) return undefined;
    let call = this.calls.get(id);
    if (!call) {
      call = {
        id,
        flow,
        path: [],
        edges: [],
        steps: [],
        state: null,
        startedAt: null,
        endedAt: null,
        ended: null,
        end: null,
        agent: false,
        agentAudio: false,
      };
      this.calls.set(id, call);
    }
    return call;
  }

  /** The far ends call `id` dialled that are still there. */
  farEndsOf(id: string): [string, FarEndView][] {
    return [...this.farEnds].filter(([, f]) => f.call === id);
  }

  /** Forgets the calls, their lines, far ends and sounds (the flows and the time stay). */
  forgetCalls(): void {
    this.calls.clear();
    this.lines.length = 0;
    this.farEnds.clear();
    this.sounds.clear();
  }

  /** Applies one feed message; `flow` is the flow a call is in until the feed says which. */
  apply(message: FeedMessage, flow: string): void {
    this.version++;
    switch (message.type) {
      case 'feed':
        // A feed that starts over (the server restarted): what the page knew of calls is gone.
        if (!message.resumed) this.forgetCalls();
        return;
      case 'flows':
        this.flows = message.flows;
        this.loaded = true;
        return;
      case 'call': {
        const call = this.call(message.id, flow);
        if (!call) return;
        if (message.flow) call.flow = message.flow;
        if (message.at !== undefined && call.startedAt === null) call.startedAt = message.at;
        return;
      }
      case 'state': {
        const call = this.call(message.call, flow);
        if (!call) return;
        call.state = message.state;
        call.path.push(message.state);
        if (message.via !== undefined) call.edges.push({ via: message.via, to: message.state });
        return;
      }
      case 'step':
        this.call(message.step.call, flow)?.steps.push(message.step);
        return;
      case 'sound': {
        const { type: _, ...sound } = message;
        // Ringback stops when other media starts on its channel (as a server's does).
        if (sound.playing && sound.media !== 'tone:ring') this.sounds.delete(`ring:${sound.channel}`);
        if (sound.playing) this.sounds.set(sound.id, sound);
        else this.sounds.delete(sound.id);
        return;
      }
      case 'clock': {
        const { type: _, ...clock } = message;
        this.clock = { ...clock, heardAt: Date.now() };
        return;
      }
      case 'ended': {
        const call = this.call(message.call, flow);
        if (!call) return;
        call.ended = message.outcome;
        call.agent = false;
        call.agentAudio = false;
        for (const [id, sound] of this.sounds) if (sound.call === message.call) this.sounds.delete(id);
        call.endedAt = message.at ?? null;
        call.end = message.end ?? null;
        return;
      }
      case 'timeline': {
        this.lines.push(message.entry);
        // A call placed through the dialplan is heard of by its lines before a flow takes it.
        const call = this.calls.get(message.entry.call);
        if (call && call.startedAt === null) call.startedAt = message.entry.at;
        // An agent session is on from its bot's connection to its end.
        const turn = message.entry.turn;
        if (call && turn?.kind === 'connected') {
          call.agent = true;
          call.agentAudio = turn.protocol === 'audio';
        }
        if (call && (turn?.kind === 'end' || turn?.kind === 'unreachable')) {
          call.agent = false;
          call.agentAudio = false;
        }
        return;
      }
      case 'farEnd':
        if (message.gone) this.farEnds.delete(message.id);
        else
          this.farEnds.set(message.id, {
            name: message.name ?? message.id,
            call: message.call ?? null,
            answered: !!message.answered,
          });
        return;
    }
  }
}
