import { fileURLToPath } from 'node:url';
import { until } from '@ringflow/testing';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ringflow } from './spawnRingflow.ts';
import { DEMO } from './wireClient.ts';

const flow = fileURLToPath(new URL('../../flows/outbound-message.yaml', import.meta.url));

describe('a transfer with `ringflow run` on `ringflow simulator`', () => {
  it('flows/outbound-message.yaml: the caller says hello, presses 1 and is bridged with the operator (attended transfer)', async () => {
    const sim = ringflow(['simulator', '--port', '0', '--endpoint', 'PJSIP/operator=answer']);
    const server = /listening on (http:\/\/\S+)\/ari/.exec(await sim.until(/listening on \S+\n/))![1]!;
    const app = ringflow([
      'run',
      flow,
      '--server',
      server,
      '--user',
      'demo',
      '--password',
      'demo',
      '--app',
      'ringflow-demo',
    ]);
    try {
      await app.until('"application started"');
      const call = ringflow([
        'call',
        '--server',
        server,
        '100',
        '--wait',
        '300ms',
        '--talk',
        '--wait',
        '1s',
        '--silence',
        '--wait',
        '4s', // a person (0.8 s of silence), "hello", "press 1"
        '--press',
        '1',
        '--wait',
        '4s', // music while the operator is called; the operator answers after 1 s and hears "transfer"
      ]);
      // While the caller waits: the operator's leg is called, then bridged with the caller.
      await call.until('key 1 received');
      const bridged = await until(
        'a bridge of the caller and the operator',
        async () => {
          const res = await request(`${server}/ari/bridges`, { headers: { Authorization: DEMO } });
          const bridges = (await res.body.json()) as { channels: string[] }[];
          return bridges.find((b) => b.channels.length === 2);
        },
        { timeoutMs: 4_000, everyMs: 100 },
      );
      const channels = await request(`${server}/ari/channels`, { headers: { Authorization: DEMO } });
      const names = ((await channels.body.json()) as { id: string; name: string }[])
        .filter((c) => bridged.channels.includes(c.id))
        .map((c) => c.name.replace(/-\w+$/, ''));
      expect(names.sort()).toEqual(['PJSIP/1000', 'PJSIP/operator']);
      expect(await call.exit).toBe(0);
      const { stdout } = call.output();
      expect(stdout).toMatch(/playing sound:hello-world/);
      // The announcement went to the operator alone.
      expect(stdout).not.toMatch(/playing sound:transfer/);
    } finally {
      app.child.kill('SIGTERM');
      sim.child.kill('SIGTERM');
      await Promise.all([app.exit, sim.exit]);
    }
  });
});
