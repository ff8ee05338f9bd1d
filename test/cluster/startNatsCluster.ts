import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { spawnNatsServer, stopChild } from './startNatsServer.ts';

/** One node of a {@link TestNatsCluster}. */
export interface TestNatsNode {
  /** Its `server_name` (`n1`, `n2`, `n3`). */
  readonly name: string;
  /** `nats://127.0.0.1:<client port>` */
  readonly url: string;
  /** Whether it runs (not killed). */
  readonly running: boolean;
  /** SIGKILL (no shutdown); resolves once it exited. */
  kill(): Promise<void>;
  /** Starts a killed node again, same ports and store directory; resolves once it accepts clients. */
  start(): Promise<void>;
}

/** Three `nats-server -js` nodes clustered on loopback, for the tests. */
export interface TestNatsCluster {
  readonly nodes: readonly TestNatsNode[];
  /** Every node's URL, comma separated (as `ringflow run --cluster` takes them). */
  readonly urls: string;
  /** Waits (bounded) until JetStream answers through the running nodes, i.e. has a meta leader. */
  jetStreamReady(timeoutMs?: number): Promise<void>;
  /** Stops every node and removes the store directories. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 15_000;

/** A free loopback TCP port (the OS picks it; closed again before the node takes it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts three Debian `nats-server` nodes with JetStream, clustered (cluster `ringflow`, routes on
 * loopback to each other), each with its own ports and store directory, and waits until JetStream
 * has a meta leader. A node can be killed (SIGKILL) and started again on the same ports and store.
 *
 * @example
 * const nats = await startNatsCluster();
 * const store = await JetStreamCallStore.connect(nats.nodes.map((n) => n.url), { replicas: 3 });
 */
export async function startNatsCluster(): Promise<TestNatsCluster> {
  const root = mkdtempSync(join(tmpdir(), 'ringflow-nats-cluster-'));
  const specs: { name: string; port: number; routePort: number; dir: string; conf: string }[] = [];
  for (const name of ['n1', 'n2', 'n3']) {
    const dir = join(root, name);
    mkdirSync(dir);
    specs.push({
      name,
      port: await freePort(),
      routePort: await freePort(),
      dir,
      conf: join(root, `${name}.conf`),
    });
  }
  const routes = specs.map((s) => `nats-route://127.0.0.1:${s.routePort}`).join(', ');
  for (const s of specs)
    writeFileSync(
      s.conf,
      `server_name: ${s.name}
listen: 127.0.0.1:${s.port}
jetstream { store_dir: "${s.dir}" }
cluster {
  name: ringflow
  listen: 127.0.0.1:${s.routePort}
  routes: [${routes}]
}
`,
    );
  const children = new Map<string, ChildProcess>();
  const nodes: TestNatsNode[] = specs.map((s) => ({
    name: s.name,
    url: `nats://127.0.0.1:${s.port}`,
    get running() {
      const child = children.get(s.name);
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    kill: async () => {
      const child = children.get(s.name);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    start: async () => {
      children.set(s.name, await spawnNode(s.conf));
    },
  }));
  const stop = async () => {
    await Promise.all([...children.values()].map(stopChild));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
  } catch (error) {
    await stop();
    throw error;
  }
  const cluster: TestNatsCluster = {
    nodes,
    urls: nodes.map((n) => n.url).join(','),
    jetStreamReady: async (timeoutMs = START_TIMEOUT_MS) => {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        const running = nodes.filter((n) => n.running).map((n) => n.url);
        try {
          const nc = await connect({ servers: running, timeout: 1_000 });
          try {
            const jsm = await jetstreamManager(nc, { timeout: 1_000 });
            // JetStream answers its account info only once it has a meta leader (else 503 / 10008).
            await jsm.getAccountInfo();
            return;
          } finally {
            await nc.close();
          }
        } catch (error) {
          last = (error as Error).message;
        }
        if (Date.now() > deadline)
          throw new Error(`no JetStream meta leader within ${timeoutMs} ms (last: ${last})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop,
  };
  try {
    await cluster.jetStreamReady();
  } catch (error) {
    await stop();
    throw error;
  }
  return cluster;
}

/** Starts one node from its config file; resolves once it accepts clients. */
async function spawnNode(conf: string): Promise<ChildProcess> {
  return (await spawnNatsServer(['-c', conf], START_TIMEOUT_MS)).child;
}
