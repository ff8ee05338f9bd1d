import type { Duplex } from 'node:stream';

/**
 * Lets what the wire server writes during one event-loop turn leave together: event frames are
 * held (the socket corked, once per turn) and HTTP replies deferred, then everything is sent at
 * the end of the turn (`setImmediate`), so the frames of all the events raised meanwhile go out in
 * one `writev` per event socket instead of one system call per frame. Frames stay whole and in
 * order per socket. (Replies are deferred rather than corked: Node's `res.end()` uncorks its
 * socket fully, whatever corked it.)
 *
 * Across sockets, the event sockets are uncorked before the replies are written: an event raised by a
 * request is on its way before the request's reply, as when every write went out at once (the
 * contract tests compare in-process and wire transcripts that depend on it). A client cannot tell
 * otherwise: its replies and events travel on different connections.
 *
 * Why: in `npm run bench` (bare application, ~1,000 calls/s, ~22 events and 4-5 requests per
 * call) one `writev` per event frame was a fifth of the simulator process's busy time; flushing
 * before each reply instead of at the end of the turn still left one per request. The delay is
 * at most the rest of the current turn, in real event-loop time, so it does not go through the
 * `Clock`.
 *
 * @example
 * const coalescer = new WriteCoalescer();
 * coalescer.holdEvents(eventSocket);
 * ws.send(frame); // leaves with the other frames of this turn
 * coalescer.deferReply(() => res.end(body)); // written after the frames held before it
 */
export class WriteCoalescer {
  private readonly eventSockets = new Set<Duplex>();
  private replies: (() => void)[] = [];
  private scheduled = false;

  /** Call before writing an event frame to `socket`: it leaves at the end of the turn or at `flush()`. */
  holdEvents(socket: Duplex): void {
    if (this.eventSockets.has(socket)) return;
    socket.cork();
    this.eventSockets.add(socket);
    this.schedule();
  }

  /** Runs `write` (which writes a reply) at the end of the turn, after the event frames held before it. */
  deferReply(write: () => void): void {
    this.replies.push(write);
    this.schedule();
  }

  /** Sends everything held now: event frames first, then replies. */
  flush(): void {
    for (const socket of this.eventSockets) socket.uncork();
    this.eventSockets.clear();
    if (this.replies.length === 0) return;
    const replies = this.replies;
    this.replies = [];
    for (const write of replies) write();
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.endOfTurn);
    }
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false;
    this.flush();
  };
}
