import { eventResources, type StreamEvent } from '@ringflow/client';
import { addressedTo, EventCopyFilter } from './EventCopyFilter.ts';

/**
 * Events the server addresses to one application only (never copied to the others), so a copy
 * for another application is the only one there is.
 */
const APP_ADDRESSED = new Set([
  'StasisStart',
  'StasisEnd',
  'ChannelUserevent',
  'ApplicationMoveFailed',
  'ApplicationReplaced',
]);

/**
 * Which copy of each event one call takes, on a stream shared by several applications (or
 * subscribeAll), where the server may send one copy of an event per application: the copy
 * addressed to the call's own application when one is certain to come (a channel of the call in
 * its application, an event not addressed to one application), else the first copy of each
 * event, whichever application it is addressed to. Each event reaches the call once.
 *
 * @example
 * const copies = new SharedStreamCopies();
 * if (!copies.takes(event, eventChannelId(event), app)) return; // another copy was, or will be, taken
 */
export class SharedStreamCopies {
  private readonly filter = new EventCopyFilter();
  /** Channels of the call in its own application (its copy of their events is certain to come). */
  private readonly inOwnApp = new Set<string>();

  /** The call's channel is in its application (a call adopted or restored: no StasisStart to learn it from). */
  noteInOwnApp(channelId: string): void {
    this.inOwnApp.add(channelId);
  }

  /**
   * True when the call takes this copy of the event.
   * @param channelId the event's channel
   * @param app the call's application (learned from its StasisStart by then)
   */
  takes(event: StreamEvent, channelId: string | undefined, app: string | undefined): boolean {
    const to = addressedTo(event);
    if (to !== undefined && to === app && channelId !== undefined) {
      if (event.type === 'StasisStart') this.inOwnApp.add(channelId);
      else if (event.type === 'StasisEnd' || event.type === 'ChannelDestroyed')
        this.inOwnApp.delete(channelId);
    }
    if (to !== app && !APP_ADDRESSED.has(event.type) && this.concernsOwnAppChannel(event)) return false;
    return this.filter.accept(event);
  }

  /**
   * True when the event is about a channel of the call that is in the call's own application
   * (its `channel`, or a playback or recording on it): that application is subscribed to the
   * channel, so its own copy of the event is certain to come.
   */
  private concernsOwnAppChannel(event: StreamEvent): boolean {
    if (this.inOwnApp.size === 0) return false;
    for (const ref of eventResources(event)) {
      const direct = ref.via === 'channel' || ref.via.endsWith('target_uri');
      if (direct && ref.kind === 'channel' && this.inOwnApp.has(ref.id)) return true;
    }
    return false;
  }
}
