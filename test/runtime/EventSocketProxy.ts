import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/** How an event socket's handshake starts (`GET /ari/events?app=...`). */
const EVENTS_REQUEST = /^GET \/ari\/events[?/ ]/;

/**
 * A TCP proxy on 127.0.0.1 in front of a wire server that can take the event sockets down the
 * way a network does (no close handshake) while REST connections keep working, and keep them down
 * (new event handshakes are cut at once) until `restore()`. A test can then change the world while
 * the application is deaf, and decide when it hears again.
 *
 * @example
 * const proxy = await EventSocketProxy.start(wire.port);
 * proxy.down();   // event sockets cut, reconnects refused
 * proxy.restore(); // the application reconnects
 */
export class EventSocketProxy {
  private readonly eventPairs = new Set<[Socket, Socket]>();
  private readonly sockets = new Set<Socket>();
  private blocked = false;
  /** Event handshakes cut while down. */
  refused = 0;
  /** The head of every event handshake that came through (request line and headers). */
  readonly handshakes: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<EventSocketProxy> {
    let proxy: EventSocketProxy | undefined;
    const server = createServer((client) => {
      proxy?.sockets.add(client);
      client.on('close', () => proxy?.sockets.delete(client));
      // The first bytes tell an event socket from a REST connection.
      client.once('data', (first: Buffer) => {
        const text = first.toString('latin1');
        const isEvents = EVENTS_REQUEST.test(text);
        if (isEvents) proxy?.handshakes.push(text.split('\r\n\r\n')[0] ?? text);
        if (isEvents && proxy?.blocked) {
          proxy.refused++;
          client.destroy();
          return;
        }
        const upstream = connect(targetPort, '127.0.0.1');
        const pair: [Socket, Socket] = [client, upstream];
        if (isEvents) proxy?.eventPairs.add(pair);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          proxy?.eventPairs.delete(pair);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        upstream.write(first);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      client.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new EventSocketProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** The interface root through the proxy. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/ari`;
  }

  /** Event sockets open through the proxy. */
  get eventSockets(): number {
    return this.eventPairs.size;
  }

  /** Cuts every event socket and refuses new ones until {@link restore}. */
  down(): void {
    this.blocked = true;
    for (const [client, upstream] of [...this.eventPairs]) {
      client.destroy();
      upstream.destroy();
    }
    this.eventPairs.clear();
  }

  /** Lets event sockets through again. */
  restore(): void {
    this.blocked = false;
  }

  /** Cuts every connection and stops listening. */
  async close(): Promise<void> {
    this.down();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
