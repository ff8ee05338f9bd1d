import type { EventStream, RestClient, TextMessageReceived } from '@ringflow/client';
import { filter } from 'rxjs';

/** An inbound text and the reply to send back (undefined: no reply). */
export type ReplyRule = (message: { from: string; to: string; body: string }) => string | undefined;

/**
 * Replies by keyword: HOURS gives the opening hours, STOP confirms the opt-out (and then stays
 * silent for that sender), anything else gets an acknowledgement.
 */
export function keywordReplies(): ReplyRule {
  const optedOut = new Set<string>();
  return ({ from, body }) => {
    if (optedOut.has(from)) return undefined;
    const word = body
      .trim()
      .split(/\s+/)[0]
      ?.replace(/[^A-Za-z]/g, '')
      .toUpperCase();
    if (word === 'STOP') {
      optedOut.add(from);
      return 'You will get no more messages from us. Text START to undo.';
    }
    if (word === 'HOURS') return 'We are open Mon-Fri 9:00-18:00 and Sat 9:00-12:00.';
    return 'Thanks for your message: someone will get back to you within the day.';
  };
}

export interface AutoResponderOptions {
  readonly client: RestClient;
  /** The application's event stream (its `apps` must include `app`). */
  readonly events: EventStream;
  readonly app: string;
  /** Texts to endpoints of this technology are answered (`PJSIP`): the app subscribes to `endpoint:<tech>`. */
  readonly technology: string;
  readonly reply: ReplyRule;
}

/**
 * An SMS auto-responder: every TextMessageReceived on the technology's endpoints is answered with
 * `endpoints.sendMessage`, from the address it was sent to. Returns a stop function.
 *
 * @example
 * const stop = await startAutoResponder({ client, events, app: 'sms', technology: 'PJSIP', reply: keywordReplies() });
 */
export async function startAutoResponder(options: AutoResponderOptions): Promise<() => void> {
  const { client, events, app } = options;
  await events.whenOpen();
  // Texts are events of endpoints: the application must subscribe to them to receive them.
  await client.applications.subscribe({
    applicationName: app,
    eventSource: `endpoint:${options.technology}`,
  });
  const subscription = events.events$
    .pipe(filter((e): e is TextMessageReceived & typeof e => e.type === 'TextMessageReceived'))
    .subscribe((event) => {
      const { from, to, body } = event.message;
      const text = options.reply({ from, to, body });
      if (text === undefined) return;
      client.endpoints.sendMessage({ to: from, from: to, body: text }).catch((error: unknown) => {
        // A reply that cannot be delivered must not stop the responder.
        console.error(`reply to ${from} failed: ${(error as Error).message}`);
      });
    });
  return () => subscription.unsubscribe();
}
