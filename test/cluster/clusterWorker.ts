/**
 * One ringflow process of the failover test, run as its own process (so it can be killed with
 * SIGKILL): the shipped IVR (flows/ivr.yaml, open every day) listening for per-call connections,
 * its call records in a JetStream key-value bucket. Prints its runtime log as JSON lines on stdout,
 * plus `{"worker":"ready","port":N}` once it listens and `{"worker":"ended",...}` for each call.
 *
 *   node --import tsx test/cluster/clusterWorker.ts <nats url> <bucket> <name>
 */
import { JetStreamCallStore } from '@ringflow/cluster';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { createApplication } from '@ringflow/runtime';
import { pino } from 'pino';

const [natsUrl, bucket, name] = process.argv.slice(2);
if (!natsUrl || !bucket || !name) {
  process.stderr.write('usage: clusterWorker.ts <nats url> <bucket> <name>\n');
  process.exit(2);
}
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const flow = await loadFlowFile(new URL('../../flows/ivr.yaml', import.meta.url).pathname);
const store = await JetStreamCallStore.connect(natsUrl, { bucket, owner: name });
const app = createApplication({
  servers: [],
  apps: ['ivr'],
  call: createFlowCallMachine(flow, { inputs: { openingHours: 'Daily 24h' } }),
  store,
  logger: pino({ level: 'info', base: { worker: name } }, pino.destination({ fd: 1, sync: true })),
  listen: {
    host: '127.0.0.1',
    port: 0,
    path: '/ari-call',
    accounts: [{ username: 'pbx', password: 'secret' }],
  },
  onCallEnded: (c) => say({ worker: 'ended', name, call: c.callId, outcome: c.outcome, time: Date.now() }),
});
await app.start();
say({ worker: 'ready', name, port: app.listening!.port });
process.on('SIGTERM', () => {
  void app.detach().then(async () => {
    await store.close();
    process.exit(0);
  });
});
