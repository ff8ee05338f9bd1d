import type { VirtualClock } from '@ringflow/client';
import { createApplication, inProcessEventTransport, inProcessRestTransport } from '@ringflow/runtime';
import type { Simulator } from '@ringflow/simulator';
import type { Logger } from 'pino';
import { APP } from './appOnServer.ts';
import { ivrCallMachine } from './ivrCallMachine.ts';

/**
 * The reliability IVR as an application on an in-process simulator, on a virtual clock, with
 * numbered ids: the application of the load test and of its bench (bench/retained-heap.ts).
 */
export function loadApplication(sim: Simulator, clock: VirtualClock, logger: Logger) {
  let n = 0;
  return createApplication({
    servers: [
      {
        name: 'pbx',
        url: 'http://pbx/ari',
        username: 'ringflow',
        password: 'secret',
        restTransport: inProcessRestTransport(sim),
        eventTransport: inProcessEventTransport(sim),
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    apps: [APP],
    call: ivrCallMachine,
    clock,
    logger,
    ids: () => String(++n),
  });
}
