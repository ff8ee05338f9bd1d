import type { IncomingMessage, ServerResponse } from 'node:http';
import { textOfTurn } from './agentTurns.ts';
import type { AgentTurn, FeedMessage, TimelineEntry } from './feedMessages.ts';

export type { FeedMessage, TimelineEntry } from './feedMessages.ts';

/** How many messages a page opened late is sent first (the oldest are dropped beyond). */
const HISTORY = 5000;

/** This process's feeds' mark in the events' ids: a page that reconnects to another process starts over. */
let feeds = 0;

/**
 * The console's live feed: messages (calls, states, timeline lines, flows) sent to every open
 * page as server-sent events; a page that opens later gets the recent history first. Each event
 * has an id (`<feed>-<n>`): a page that reconnects (the browser sends the last id it had) gets only
 * what it missed; one that reconnects to another feed (the server restarted) is told to start over
 * (`{ type: 'feed', resumed: false }` comes first on every connection).
 *
 * @example
 * const feed = new ConsoleFeed();
 * feed.line('call-1', 'state', '◆ greet');
 * feed.serve(req, res); // GET .../api/feed
 */
export class ConsoleFeed {
  private readonly pages = new Set<ServerResponse>();
  private readonly history: { readonly seq: number; readonly data: string }[] = [];
  private readonly mark = `${process.pid.toString(36)}.${Date.now().toString(36)}.${++feeds}`;
  private seq = 0;
  private closed = false;

  /** @param now the time of the lines (ms since the epoch): the console's simulated time in `ringflow dev`. */
  constructor(private readonly now: () => number = Date.now) {}

  send(message: FeedMessage): void {
    const seq = ++this.seq;
    const data = `id: ${this.mark}-${seq}\ndata: ${JSON.stringify(message)}\n\n`;
    this.history.push({ seq, data });
    if (this.history.length > HISTORY) this.history.shift();
    for (const res of this.pages) res.write(data);
  }

  /** A timeline line of `call` (time: now, as the page shows it). */
  line(call: string, kind: TimelineEntry['kind'], text: string): void {
    this.send({ type: 'timeline', entry: { at: this.now(), call, kind, text } satisfies TimelineEntry });
  }

  /** A turn of an agent step of `call`: a timeline line of kind `agent` that carries it. */
  turn(call: string, turn: AgentTurn): void {
    const entry: TimelineEntry = { at: this.now(), call, kind: 'agent', text: textOfTurn(turn), turn };
    this.send({ type: 'timeline', entry });
  }

  /**
   * Answers a page's request for the feed: the history, then `current` (the state of things
   * that the history may have dropped), then every message as it comes.
   */
  serve(req: IncomingMessage, res: ServerResponse, current: readonly FeedMessage[] = []): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // A closed feed (the console stopping) keeps no page, or its server could not close: the
    // page asks again in a second, of whatever serves then.
    if (this.closed) {
      res.end('retry: 1000\n\n');
      return;
    }
    const last = /^(.+)-(\d+)$/.exec(String(req.headers['last-event-id'] ?? ''));
    const resumed = last?.[1] === this.mark && this.history.some((h) => h.seq === Number(last[2]));
    const after = resumed ? Number(last?.[2]) : 0;
    // A lost feed is asked again after a second.
    res.write(`retry: 1000\ndata: ${JSON.stringify({ type: 'feed', resumed } satisfies FeedMessage)}\n\n`);
    for (const { seq, data } of this.history) if (seq > after) res.write(data);
    for (const message of current) res.write(`data: ${JSON.stringify(message)}\n\n`);
    this.pages.add(res);
    req.on('close', () => this.pages.delete(res));
  }

  /** Ends every open feed, and those asked for later (the pages reconnect to whatever serves next). */
  close(): void {
    this.closed = true;
    for (const res of this.pages) res.end();
    this.pages.clear();
  }
}
