import { fileURLToPath } from 'node:url';
import { until } from '@ringflow/testing';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ringflow } from './spawnRingflow.ts';
import { DEMO } from './wireClient.ts';

const flow = fileURLToPath(new URL('../../flows/outbound-handover.yaml', import.meta.url));

describe('an attended transfer that steps out, with `ringflow run` on `ringflow simulator`', () => {
  it('flows/outbound-handover.yaml: the caller presses 1, is bridged with the operator; hanging up ends the call transferred, by the flow, and leaves nothing on the server', async () => {
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
      '--format',
      'json',
    ]);
    const ari = async <T>(path: string): Promise<T> => {
      const res = await request(`${server}/ari${path}`, { headers: { Authorization: DEMO } });
      return (await res.body.json()) as T;
    };
    try {
      await app.until('"application started"');
      const call = ringflow([
        'call',
        '--server',
        server,
        '100',
        '--wait',
        '2s', // "press 1"
        '--press',
        '1',
        '--wait',
        '6s', // music while the operator is called; it answers and hears "transfer"; bridged
      ]);
      await call.until('key 1 received');
      const bridged = await until(
        'a bridge of the caller and the operator',
        async () =>
          (await ari<{ id: string; channels: string[] }[]>('/bridges')).find((b) => b.channels.length === 2),
        { timeoutMs: 6_000, everyMs: 100 },
      );
      const names = (await ari<{ id: string; name: string }[]>('/channels'))
        .filter((c) => bridged.channels.includes(c.id))
        .map((c) => c.name.replace(/-\w+$/, ''));
      expect(names.sort()).toEqual(['PJSIP/1000', 'PJSIP/operator']);
      // `ringflow call` hangs up at the end of its script: the caller leaves first.
      expect(await call.exit).toBe(0);
      const ended = await until(
        'the call ended line',
        () =>
          app
            .output()
            .stdout.split('\n')
            .find((l) => l.includes('"msg":"call ended"')),
        { timeoutMs: 5_000 },
      );
      expect(JSON.parse(ended)).toMatchObject({ status: 'transferred', by: 'flow' });
      // The operator was hung up with the caller and the bridge destroyed: nothing is left.
      await until(
        'nothing left on the server',
        async () =>
          (await ari<unknown[]>('/channels')).length === 0 && (await ari<unknown[]>('/bridges')).length === 0,
        { timeoutMs: 5_000, everyMs: 100 },
      );
      expect(call.output().stdout).not.toMatch(/playing sound:goodbye/);
    } finally {
      app.child.kill('SIGTERM');
      sim.child.kill('SIGTERM');
      await Promise.all([app.exit, sim.exit]);
    }
  });
});
