import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/** A TCP round robin on 127.0.0.1 (a load balancer in front of several processes). */
export interface RoundRobin {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts a TCP round robin in front of `ports` on a free loopback port: each new connection goes
 * to the next one, and a connection refused (a dead process) is tried on the next, as a load
 * balancer's retry would. `ports` is read at each connection, so a caller may change it.
 *
 * @example
 * const rr = await startRoundRobin(workers.map((w) => w.port));
 * // a server dials ws://127.0.0.1:${rr.port}/ari-call
 */
export async function startRoundRobin(ports: readonly number[]): Promise<RoundRobin> {
  let next = 0;
  const proxy = createServer((client: Socket) => {
    client.pause();
    const attempt = (tries: number) => {
      const upstream = connect(ports[next++ % ports.length]!, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        client.pipe(upstream).pipe(client);
        client.resume();
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      upstream.on('error', () => {
        if (!connected && tries > 1) attempt(tries - 1);
        else client.destroy();
      });
    };
    client.on('error', () => client.destroy());
    attempt(ports.length);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}
