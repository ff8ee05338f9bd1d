import type { FeedMessage, FlowDescription, TimelineEntry } from './types.ts';

/** A call as the page follows it. */
export interface CallView {
  readonly id: string;
  flow: string;
  /** The states it entered, in order. */
  readonly path: string[];
  state: string | null;
  ended: string | null;
}

/** A far end a call's flow dialled, as the page lists it. */
export interface FarEndView {
  readonly name: string;
  readonly answered: boolean;
}

/**
 * What the page knows, built from the feed's messages (the history first, then each as it comes).
 * Mutable, with a version that changes on each message: the feed brings thousands of messages when
 * a page opens, and copying the timeline for each would cost more than it tells.
 */
export class ConsoleStore {
  flows: FlowDescription[] = [];
  readonly calls = new Map<string, CallView>();
  readonly lines: TimelineEntry[] = [];
  readonly farEnds = new Map<string, FarEndView>();
  version = 0;

  /** The call `id`, made when first heard of (in the flow `flow`). Far ends are not calls. */
  call(id: string, flow: string): CallView | undefined {
    if (this.farEnds.has(id)) return undefined;
    let call = this.calls.get(id);
    if (!call) {
      call = { id, flow, path: [], state: null, ended: null };
      this.calls.set(id, call);
    }
    return call;
  }

  /** Applies one feed message; `flow` is the flow a call is in until the feed says which. */
  apply(message: FeedMessage, flow: string): void {
    this.version++;
    switch (message.type) {
      case 'flows':
        this.flows = message.flows;
        return;
      case 'call': {
        const call = this.call(message.id, flow);
        if (call && message.flow) call.flow = message.flow;
        return;
      }
      case 'state': {
        const call = this.call(message.call, flow);
        if (!call) return;
        call.state = message.state;
        call.path.push(message.state);
        return;
      }
      case 'ended': {
        const call = this.call(message.call, flow);
        if (call) call.ended = message.outcome;
        return;
      }
      case 'timeline':
        this.lines.push(message.entry);
        return;
      case 'farEnd':
        if (message.gone) this.farEnds.delete(message.id);
        else this.farEnds.set(message.id, { name: message.name ?? message.id, answered: !!message.answered });
        return;
    }
  }
}
