/**
 * The benchmark IVR on ringflow: the runtime (one XState actor per call) running the YAML flow
 * `bench/flows/bench-ivr.yaml` compiled by the dsl, or, with BENCH_RINGFLOW=machine, the same IVR
 * hand-written as an XState machine (`benchIvrMachine.ts`). Default transports (ws, undici),
 * wrapped only to feed the latency probe; logs at `error`, as a production deployment would run
 * (BENCH_LOG_LEVEL to change it).
 */
import { fileURLToPath } from 'node:url';
import {
  type EventTransport,
  type RestTransport,
  type TransportRequest,
  UndiciTransport,
  WsTransport,
} from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { createApplication } from '@ringflow/runtime';
import { IVR_APP } from '../ivr/ivrWorkload.ts';
import { benchIvrMachine } from './benchIvrMachine.ts';
import type { LatencyProbe } from './LatencyProbe.ts';
import { type BenchApp, runBenchApp } from './runBenchApp.ts';

/** The default event transport, reporting each frame to the probe (parsed once, here, for both). */
function probedEvents(probe: LatencyProbe): EventTransport {
  const inner = new WsTransport();
  return {
    connect: (request, handlers) =>
      inner.connect(request, {
        ...handlers,
        message: (frame) => {
          probe.frameArrived();
          // The stream accepts parsed frames (see EventTransport): no second parse.
          const event = typeof frame === 'string' ? (JSON.parse(frame) as object) : frame;
          probe.event(event);
          handlers.message(event);
        },
      }),
  };
}

/**
 * The default REST transport, reporting each request to the probe as it is handed to undici.
 * It forwards both entry points: the client uses `dispatch` when a transport has it.
 */
function probedRest(probe: LatencyProbe, options: { url: string; username: string; password: string }) {
  const inner = new UndiciTransport(options);
  const report = (request: TransportRequest) =>
    probe.request(request.method, `${request.path}?${request.query.map(([, v]) => v).join('&')}`);
  return {
    send: (request) => {
      report(request);
      return inner.send(request);
    },
    dispatch: (request, exchange) => {
      report(request);
      if (!probe.timeline) return inner.dispatch(request, exchange);
      const timeline = probe;
      return inner.dispatch(request, {
        dispatched: () => exchange.dispatched(),
        replied: (reply) => {
          timeline.replied(request.method, request.path);
          exchange.replied(reply);
        },
        failed: (error) => exchange.failed(error),
      });
    },
    close: () => inner.close(),
  } satisfies RestTransport;
}

await runBenchApp(async ({ url, username, password, probe }) => {
  const variant = process.env.BENCH_RINGFLOW ?? 'yaml';
  const machine =
    variant === 'machine'
      ? benchIvrMachine
      : createFlowCallMachine(
          await loadFlowFile(fileURLToPath(new URL('../flows/bench-ivr.yaml', import.meta.url))),
        );
  const app = createApplication({
    servers: [
      {
        url,
        username,
        password,
        restTransport: probedRest(probe, { url, username, password }),
        eventTransport: probedEvents(probe),
      },
    ],
    apps: [IVR_APP],
    call: machine,
    logger: { level: process.env.BENCH_LOG_LEVEL ?? 'error' },
  });
  const errors: string[] = [];
  app.calls$.subscribe((session) => {
    void session.done.then((outcome) => {
      if (outcome !== 'completed' && errors.length < 1000) errors.push(`${session.channelId}: ${outcome}`);
    });
  });
  await app.start();
  return {
    activeCalls: () => app.counters().activeSessions,
    leftovers: () => ({ ...app.counters() }),
    errors: () => errors,
    close: () => app.stop(),
  } satisfies BenchApp;
});
