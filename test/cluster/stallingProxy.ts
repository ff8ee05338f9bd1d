import { createConnection, createServer, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of one port, whose traffic can be held back and let go again. */
export interface StallingProxy {
  /** `nats://127.0.0.1:<port>`: give it to the process that should go through the proxy. */
  readonly url: string;
  /**
   * Holds every byte back in both directions (new connections too) without closing anything: to
   * the process behind it, NATS stops answering, as in a network partition or a hung switch.
   */
  stall(): void;
  /** Lets the held bytes through, in order, and everything after them. */
  resume(): void;
  close(): Promise<void>;
}

/**
 * Starts a {@link StallingProxy} to `targetPort` on a free loopback port. Stalling pauses the
 * sockets' reading (TCP back-pressure), so nothing is lost or reordered: the NATS protocol stream
 * goes on intact once resumed.
 *
 * @example
 * const proxy = await startStallingProxy(nats.port);
 * // start a worker with --cluster proxy.url, then:
 * proxy.stall(); ... proxy.resume();
 */
export async function startStallingProxy(targetPort: number): Promise<StallingProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (stalled) socket.pause();
  };
  // Not pipe(): its back-pressure would resume a stalled socket when the other side drains.
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (to.write(chunk)) return;
      from.pause();
      to.once('drain', () => {
        if (!stalled) from.resume();
      });
    });
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `nats://127.0.0.1:${port}`,
    stall() {
      stalled = true;
      for (const s of sockets) s.pause();
    },
    resume() {
      stalled = false;
      for (const s of sockets) s.resume();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
