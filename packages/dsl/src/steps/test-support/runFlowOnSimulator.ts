import { VirtualClock } from '@ringflow/client';
import {
  type CallSession,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { createMachine } from 'xstate';
import type { FlowOutput } from '../../index.ts';
import { createFlowCallMachine } from '../../index.ts';
import type { Flow } from '../../index.ts';

/** The dialplan of flow tests: a caller half that waits, and a number that enters the app. */
/** The caller's side does nothing: the test drives it through REST. */
const idleCaller = createMachine({ id: 'caller' });

const DIALPLAN = `
[from-callers]
exten => _X.,1,NoOp(call to \${EXTEN})
 same => n,Stasis(ivr,\${EXTEN})
 same => n,Hangup()

[ivr-exits]
exten => s,1,NoOp(left the IVR)
 same => n(operator),Playback(transfer)
 same => n,Hangup()
`;

/** A REST request the flow made, as the simulator saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * Runs a flow for one inbound call on the in-process simulator, through the real runtime, in
 * virtual time. The caller is the other half of a Local channel pair: `press` sends DTMF from it,
 * `hangUp` hangs it up. Every REST request the application made is recorded in `requests`.
 */
export async function runFlowOnSimulator(
  flow: Flow,
  options: {
    inputs?: Record<string, unknown>;
    startMs?: number;
    answerOutboundAfterMs?: number | null;
    fetch?: typeof fetch;
  } = {},
) {
  const clock = new VirtualClock(options.startMs ?? Date.UTC(2026, 0, 5, 10, 0)); // a Monday, 11:00 in Paris
  const sim = createSimulator({
    clock,
    dialplan: { text: DIALPLAN, file: 'flow-tests.conf' },
    endpoints: ['PJSIP/operator'],
    answerOutboundAfterMs: options.answerOutboundAfterMs === undefined ? 2000 : options.answerOutboundAfterMs,
  });
  const requests: SeenRequest[] = [];
  const recorded = {
    handle: async (request: Parameters<typeof sim.handle>[0]) => {
      requests.push({
        method: request.method,
        path: request.path,
        query: request.query,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      return sim.handle(request);
    },
    connectEvents: sim.connectEvents.bind(sim),
  };
  const flowMachine = createFlowCallMachine(flow, {
    ...(options.inputs ? { inputs: options.inputs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let n = 0;
  const server = (transport: typeof recorded | typeof sim) => ({
    url: 'http://simulator/ari',
    username: 'flow',
    password: 'test',
    restTransport: inProcessRestTransport(transport),
    eventTransport: inProcessEventTransport(sim),
    eventStream: { pingIntervalMs: 0 },
  });
  const app = createApplication({
    servers: [server(recorded)],
    apps: ['ivr'],
    call: flowMachine,
    clock,
    ids: () => String(++n),
    logger: pino({ level: 'silent' }),
  });
  // The caller's half of the Local pair sits in its own application (its own connection, so
  // the flow's application sees each event once), from where the test sends DTMF.
  const callerSide = createApplication({
    servers: [server(sim)],
    apps: ['caller'],
    call: idleCaller,
    clock,
    logger: pino({ level: 'silent' }),
  });
  await app.start();
  await callerSide.start();
  const states: string[] = [];
  let output: FlowOutput | undefined;
  let session: CallSession | undefined;
  app.calls$.subscribe((s) => {
    if (s.channelId !== 'callee') return;
    session = s;
    // The actor is created right after the session is announced.
    queueMicrotask(() =>
      s.machine?.subscribe((snapshot) => {
        const value = JSON.stringify(snapshot.value);
        if (states[states.length - 1] !== value) states.push(value);
        if (snapshot.status === 'done') output = snapshot.output as FlowOutput;
      }),
    );
  });
  const driver = callerSide.client();
  await driver.channels.originateWithId({
    channelId: 'caller',
    otherChannelId: 'callee',
    endpoint: 'Local/100@from-callers',
    app: 'caller',
  });
  await clock.advance(10);
  // Only what the flow asked for: not the test's own requests on the caller's half.
  const flowRequests = () =>
    requests.filter(
      (r) =>
        !r.path.startsWith('/channels/caller') &&
        !r.path.startsWith('/api-docs') &&
        !r.path.endsWith('/ping'),
    );
  return {
    clock,
    app,
    requests: flowRequests,
    /** Flow states entered, top-level only, in order (consecutive repeats folded). */
    visited: () => [
      ...new Set(
        states
          .map((s) => JSON.parse(s) as unknown)
          .map((v) => (typeof v === 'string' ? v : (Object.keys(v as object)[0] ?? '')))
          // The compiler's own end states are not flow states.
          .filter((name) => name !== '$finish' && name !== '$end'),
      ),
    ],
    output: () => output,
    session: () => session,
    press: async (digits: string) => {
      for (const digit of digits) {
        await driver.channels.sendDTMF({ channelId: 'caller', dtmf: digit, duration: 100 });
        await clock.advance(150);
      }
    },
    hangUp: async () => {
      await driver.channels.hangup({ channelId: 'caller' });
      await clock.advance(10);
    },
    close: async () => {
      await app.stop();
      await callerSide.stop();
      sim.close();
    },
  };
}
