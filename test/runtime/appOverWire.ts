import { VirtualClock } from '@ringflow/client';
import { type ApplicationOptions, type CallEnded, createApplication } from '@ringflow/runtime';
import {
  createSimulator,
  type SimulatedServer,
  type SimulatorOptions,
  startWireServer,
} from '@ringflow/simulator';
import { pino } from 'pino';
import type { SeenRequest } from './harness.ts';
import { virtualTimeOverWire } from './virtualTimeOverWire.ts';

/**
 * An application and the simulator over real sockets: the simulator's wire server (HTTP +
 * WebSocket on 127.0.0.1, account ringflow/secret), the runtime's real REST client and event
 * stream, time still virtual: `run(ms)` moves it in 100 ms steps once everything in flight has
 * landed (see virtualTimeOverWire). Every request the server receives is kept (`requests`), and
 * every call's end (`ended`). Start the application yourself (`app.start()`), close it all with
 * `close()`.
 *
 * @example
 * const w = await appOverWire({ apps: ['ivr'], call: machine }, { endpoints: ['PJSIP/agent'] });
 * await w.app.start();
 * w.simulator.driver.placeCall({ to: '100', app: 'ivr' });
 * await w.run(3_000);
 */
export async function appOverWire(
  application: Omit<ApplicationOptions, 'servers' | 'clock'>,
  simulatorOptions: Omit<SimulatorOptions, 'clock'> = {},
  clock = new VirtualClock(),
) {
  const simulator = createSimulator({ ...simulatorOptions, clock });
  const requests: SeenRequest[] = [];
  let eventsSent = 0;
  const watched: SimulatedServer = {
    handle: (request) => {
      requests.push({
        server: 'pbx',
        method: request.method,
        path: request.path,
        query: { ...request.query },
      });
      return simulator.handle(request);
    },
    connectEvents: (request, deliver) =>
      simulator.connectEvents(request, (event) => {
        eventsSent++;
        deliver(event);
      }),
  };
  const wire = await startWireServer(watched, {
    users: [{ username: 'ringflow', password: 'secret' }],
    clock,
  });
  const app = createApplication({
    logger: pino({ level: 'silent' }),
    ...application,
    clock,
    servers: [
      {
        name: 'pbx',
        url: wire.url,
        username: 'ringflow',
        password: 'secret',
        eventStream: { pingIntervalMs: 0 },
        restTimeoutMs: 60_000,
      },
    ],
  });
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((report) => ended.push(report));
  const time = virtualTimeOverWire(clock, app, () => eventsSent);
  /** A list of the simulator's resources (`/channels`, `/bridges`). */
  const list = async <T>(path: string) =>
    (await simulator.handle({ method: 'GET', path, query: {} })).body as T[];
  const close = async () => {
    await app.stop();
    await wire.close();
    simulator.close();
  };
  return {
    clock,
    simulator,
    app,
    requests,
    ended,
    run: (ms: number, stepMs = 100) => time.run(ms, stepMs),
    landed: time.landed,
    list,
    close,
  };
}
