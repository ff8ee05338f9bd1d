import { createServer, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a loopback server, whose connections a test can cut at
 * once: the network failing under a client (no close handshake, no HTTP reply), as opposed to
 * the server closing politely.
 *
 * @example
 * const proxy = await CuttableProxy.start(wire.port);
 * const url = `http://127.0.0.1:${proxy.port}/ari`;
 * proxy.cut(); // every open connection breaks
 */
export class CuttableProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  cuts = 0;

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<CuttableProxy> {
    let proxy: CuttableProxy | undefined;
    const server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      const pair: [Socket, Socket] = [client, upstream];
      proxy?.pairs.add(pair);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        proxy?.pairs.delete(pair);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new CuttableProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Open connections through the proxy. */
  get connections(): number {
    return this.pairs.size;
  }

  /** Breaks every open connection (REST keep-alive connections and event sockets alike). */
  cut(): void {
    this.cuts++;
    for (const [client, upstream] of [...this.pairs]) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
