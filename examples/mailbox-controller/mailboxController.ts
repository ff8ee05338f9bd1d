import type { ChannelUserevent, EventStream, RestClient } from '@ringflow/client';
import { filter } from 'rxjs';

export interface MailboxControllerOptions {
  readonly client: RestClient;
  /** The event stream of `app`: user events raised by flows for `app` arrive on it. */
  readonly events: EventStream;
  readonly app: string;
}

/** Counts of one mailbox, as phones show them (the message-waiting lamp is on while `newMessages > 0`). */
export interface MailboxCounts {
  readonly newMessages: number;
  readonly oldMessages: number;
}

/**
 * Keeps external mailboxes and a do-not-disturb device state in step with what calls do:
 * - a `VoicemailLeft` user event (raised by flows/ivr.yaml after a recording, variable `mailbox`,
 *   default `ivr`) adds a new message: `mailboxes.update` lights the phones' lamp;
 * - `listened(mailbox)` turns one new message into an old one; the lamp goes off at zero;
 * - `setDoNotDisturb(user, on)` drives the device `Stasis:dnd-<user>` (BUSY / NOT_INUSE), which a
 *   dialplan hint or a BLF key can watch.
 *
 * @example
 * const controller = await startMailboxController({ client, events, app: 'ivr' });
 * await controller.setDoNotDisturb('alice', true);
 */
export async function startMailboxController(options: MailboxControllerOptions) {
  const { client, events } = options;
  const counts = new Map<string, MailboxCounts>();
  let queue = Promise.resolve();
  const update = (mailbox: string, change: (c: MailboxCounts) => MailboxCounts) => {
    // One update at a time: each request carries the full counts, so order matters.
    queue = queue.then(async () => {
      const next = change(counts.get(mailbox) ?? { newMessages: 0, oldMessages: 0 });
      await client.mailboxes.update({ mailboxName: mailbox, ...next });
      counts.set(mailbox, next);
    });
    return queue;
  };
  await events.whenOpen();
  const subscription = events.events$
    .pipe(
      filter(
        (e): e is ChannelUserevent & typeof e =>
          e.type === 'ChannelUserevent' && (e as ChannelUserevent).eventname === 'VoicemailLeft',
      ),
    )
    .subscribe((event) => {
      const mailbox = String((event.userevent as { mailbox?: unknown }).mailbox ?? 'ivr');
      void update(mailbox, (c) => ({ ...c, newMessages: c.newMessages + 1 }));
    });
  return {
    /** The counts as last written to the server. */
    counts: (mailbox: string): MailboxCounts | undefined => counts.get(mailbox),
    /** Everything written so far has reached the server. */
    settled: () => queue,
    listened: (mailbox: string) =>
      update(mailbox, (c) =>
        c.newMessages === 0 ? c : { newMessages: c.newMessages - 1, oldMessages: c.oldMessages + 1 },
      ),
    setDoNotDisturb: (user: string, on: boolean) =>
      client.deviceStates.update({
        deviceName: `Stasis:dnd-${user}`,
        deviceState: on ? 'BUSY' : 'NOT_INUSE',
      }),
    stop: () => subscription.unsubscribe(),
  };
}
