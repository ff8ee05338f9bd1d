import type { Duplex } from 'node:stream';

/**
 * Lets the event frames written to the wire server's sockets during one event-loop turn leave
 * together: `hold(socket)` before a write corks the socket (once per turn) and one uncork is
 * scheduled for the end of the turn (`setImmediate`), so every frame written meanwhile goes out
 * in one `writev` instead of one system call per frame. Frames stay whole and in order.
 *
 * `flush()` sends what is held at once. The server calls it before every HTTP response, so the
 * writes still reach the sockets in program order: an event raised by a request is on its way
 * before the request's reply, as without coalescing (the contract tests compare transcripts
 * that depend on it).
 *
 * Why: in `npm run bench` (bare application, ~1,000 calls/s, ~22 events per call) one `writev`
 * per event frame was a fifth of the simulator process's busy time. The delay is at most the
 * rest of the current turn, in real event-loop time, so it does not go through the `Clock`.
 *
 * @example
 * const coalescer = new WriteCoalescer();
 * coalescer.hold(socket);
 * ws.send(frame); // leaves with the other frames of this turn
 * coalescer.flush(); // before writing an HTTP response elsewhere
 */
export class WriteCoalescer {
  private readonly corked = new Set<Duplex>();
  private scheduled = false;

  /** Call before writing to `socket`: the write waits for the end of the turn or the next `flush()`. */
  hold(socket: Duplex): void {
    if (this.corked.has(socket)) return;
    socket.cork();
    this.corked.add(socket);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.endOfTurn);
    }
  }

  /** Sends everything held now. */
  flush(): void {
    if (this.corked.size === 0) return;
    for (const socket of this.corked) socket.uncork();
    this.corked.clear();
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false;
    this.flush();
  };
}
