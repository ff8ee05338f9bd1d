import { VirtualClock } from '@ringflow/client';
import { type CallEnded, createApplication } from '@ringflow/runtime';
import { createSimulator, type SimulatedServer, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createIvrMachine } from '../../examples/ivr-machine/ivrMachine.ts';
import type { SeenRequest } from './harness.ts';

const APP = 'ringflow-demo';
const ivr = createIvrMachine({
  agentEndpoint: 'PJSIP/agent',
  operator: { context: 'ivr-exits', extension: 's', label: 'operator' },
});

const realTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/**
 * The IVR over real sockets: the simulator's wire server (HTTP + WebSocket on 127.0.0.1), the
 * runtime's real REST client and event stream, time still virtual. Before each step of virtual
 * time, everything in flight must have landed: every event the server sent has been received,
 * and no request is waiting for its reply. So virtual time never runs ahead of the sockets.
 */
async function setUp() {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock, endpoints: ['PJSIP/agent'], answerOutboundAfterMs: 1000 });
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
  let n = 0;
  const app = createApplication({
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
    apps: [APP],
    call: ivr,
    clock,
    ids: () => String(++n),
    logger: pino({ level: 'silent' }),
  });
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((report) => ended.push(report));
  const received = () => app.metrics.summary().events;
  /** Waits (real time) until the sockets are quiet twice in a row. */
  const landed = async () => {
    let quiet = 0;
    for (let i = 0; i < 2000 && quiet < 2; i++) {
      await realTurn();
      quiet = received() === eventsSent && app.counters().pendingRequests === 0 ? quiet + 1 : 0;
    }
    expect(quiet).toBe(2);
  };
  /** Moves virtual time forward in small steps, letting the sockets land between them. */
  const run = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      await landed();
      await clock.advance(50);
    }
    await landed();
  };
  const close = async () => {
    await app.stop();
    await wire.close();
    simulator.close();
  };
  const summary = () =>
    requests
      .filter((r) => !r.path.startsWith('/api-docs') && !/^\/(asterisk|core)\/ping$/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
  return { simulator, app, ended, run, close, summary };
}

describe('IVR machine over the wire (the simulator behind its real wire server)', () => {
  it('option 1 with barge-in: agent dialled and bridged, agent hangs up, goodbye', async () => {
    const { simulator, app, ended, run, close, summary } = await setUp();
    try {
      await app.start();
      simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
      await run(500);
      simulator.driver.pressDigits('caller-1', '1');
      await run(2000);
      simulator.driver.hangup('channel-2');
      await run(5000);
      expect(summary()).toEqual([
        'POST /channels/caller-1/answer',
        'POST /channels/caller-1/play/playback-1',
        'DELETE /playbacks/playback-1',
        'POST /channels',
        'POST /bridges',
        'POST /bridges/bridge-3/addChannel',
        'POST /channels/caller-1/play/playback-4',
        'DELETE /channels/caller-1',
        'DELETE /bridges/bridge-3',
      ]);
      expect(ended).toMatchObject([
        { callId: 'caller-1', outcome: 'completed', machineStatus: 'done', output: { choice: '1' } },
      ]);
      expect(simulator.channelCount).toBe(0);
    } finally {
      await close();
    }
  });

  it('option 2: user event, then continue at the operator label', async () => {
    const { simulator, app, ended, run, close, summary } = await setUp();
    try {
      await app.start();
      simulator.driver.placeCall({ channelId: 'caller-2', from: '5551234', to: '100' });
      await run(1500);
      simulator.driver.pressDigits('caller-2', '2');
      await run(1000);
      expect(summary()).toEqual([
        'POST /channels/caller-2/answer',
        'POST /channels/caller-2/play/playback-1',
        'POST /events/user/OperatorRequested',
        'POST /channels/caller-2/continue',
      ]);
      expect(ended).toMatchObject([{ callId: 'caller-2', machineStatus: 'done', output: { choice: '2' } }]);
    } finally {
      await close();
    }
  });
});
