import { VirtualClock } from '@ringflow/client';
import { applicationReadiness, createApplication, startOpsServer } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { firstValueFrom } from 'rxjs';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createIvrMachine } from '../../examples/ivr-machine/ivrMachine.ts';

const APP = 'ringflow-demo';
const users = [{ username: 'ringflow', password: 'secret' }];

async function get(url: string, authorization?: string) {
  const res = await request(url, authorization ? { headers: { Authorization: authorization } } : {});
  return { status: res.statusCode, text: await res.body.text(), type: res.headers['content-type'] };
}

/** The operations endpoints of `ringflow run --http`, over real sockets, time virtual. */
describe('the operations server (/metrics, /healthz, /readyz)', () => {
  it('is not ready before the event stream connects, ready once it does, not ready when the server goes; counts calls', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    const wire = await startWireServer(simulator, { users, clock, driver: simulator.driver });
    const app = createApplication({
      servers: [
        {
          name: 'pbx',
          url: wire.url,
          username: 'ringflow',
          password: 'secret',
          eventStream: { pingIntervalMs: 0 },
        },
      ],
      apps: [APP],
      call: createIvrMachine({
        agentEndpoint: 'PJSIP/agent',
        operator: { context: 'x', extension: 's', label: 'y' },
      }),
      clock,
      logger: pino({ level: 'silent' }),
    });
    const ops = await startOpsServer({
      port: 0,
      metrics: () => app.metrics.registry.toPrometheus(),
      readiness: () => applicationReadiness(app),
    });
    try {
      expect(ops.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await get(`${ops.url}/healthz`)).status).toBe(200);
      const before = await get(`${ops.url}/readyz`);
      expect(before.status).toBe(503);
      expect(before.text).toMatch(/pbx: event stream/);

      await app.start();
      expect(await get(`${ops.url}/readyz`)).toMatchObject({ status: 200, text: 'ready\n' });

      // A call placed through the driver API reaches the application.
      const started = firstValueFrom(app.calls$);
      const placed = await request(`${wire.url.replace(/\/ari$/, '')}/ringflow/driver/calls`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from('ringflow:secret').toString('base64')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ app: APP, from: '5551234' }),
      });
      expect(placed.statusCode).toBe(201);
      await placed.body.text();
      await started;
      const metrics = await get(`${ops.url}/metrics`);
      expect(metrics.type).toMatch(/^text\/plain/);
      expect(metrics.text).toContain('ringflow_calls_started_total{direction="inbound"} 1');
      expect(metrics.text).toContain('ringflow_active_calls 1');
      expect(metrics.text).toMatch(/^process_cpu_seconds_total \d/m);
      expect(metrics.text).toMatch(/^nodejs_heap_size_used_bytes \d/m);

      await wire.close();
      let after = await get(`${ops.url}/readyz`);
      while (after.status === 200) {
        await new Promise((r) => setImmediate(r));
        after = await get(`${ops.url}/readyz`);
      }
      expect(after.status).toBe(503);
      expect(after.text).toMatch(/pbx: event stream (reconnecting|connecting)/);
    } finally {
      await ops.close();
      await app.stop().catch(() => {});
      await wire.close().catch(() => {});
      simulator.close();
    }
  });

  it('asks for credentials when given some, and mounts extra handlers', async () => {
    const ops = await startOpsServer({
      port: 0,
      auth: { username: 'ops', password: 'pw' },
      metrics: () => '',
      readiness: () => ({ ready: true, reasons: [] }),
    });
    ops.addHandler(async (req, res) => {
      if (req.url !== '/live') return false;
      res.end('live view');
      return true;
    });
    try {
      const refused = await get(`${ops.url}/metrics`);
      expect(refused.status).toBe(401);
      const wrong = await get(`${ops.url}/metrics`, `Basic ${Buffer.from('ops:nope').toString('base64')}`);
      expect(wrong.status).toBe(401);
      const ok = `Basic ${Buffer.from('ops:pw').toString('base64')}`;
      expect((await get(`${ops.url}/readyz`, ok)).status).toBe(200);
      expect(await get(`${ops.url}/live`, ok)).toMatchObject({ status: 200, text: 'live view' });
      expect((await get(`${ops.url}/nothing`, ok)).status).toBe(404);
    } finally {
      await ops.close();
    }
  });
});
