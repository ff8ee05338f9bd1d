import { Writable } from 'node:stream';
import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, formatDiagnostic, parseFlow } from '@ringflow/dsl';
import {
  type Application,
  type CallEnded,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { createSimulator, type Simulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * One flow, three ways to fail (picked by the call's Stasis argument): a request the server
 * refuses (its state's error handler takes over), a request with no reply in time, an expression
 * that cannot be evaluated (nothing handles those two).
 */
const FLOW = `name: failing
start: pick
states:
  pick:
    steps: [answer]
    choose:
      - when: call.args[0] == 'refused'
        goto: refused
      - when: call.args[0] == 'timeout'
        goto: slow
      - goto: broken
  refused:
    on: { error: sorry }
    steps:
      - originate: { endpoint: nonsense, context: callbacks, extension: s }
    next: sorry
  slow:
    steps:
      - setChannelVar: { variables: { SLOW: "1" } }
    next: sorry
  broken:
    steps:
      - play: { media: { expr: "'sound:' + call.args[5]" } }
    next: sorry
  sorry:
    steps: [hangup]
`;

/** A pino logger at info keeping its records in memory. */
function memoryLogger() {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') records.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), records };
}

let app: Application | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await app?.stop();
  sim?.close();
  app = undefined;
  sim = undefined;
});

async function runCall(kind: 'refused' | 'timeout' | 'expression') {
  const parsed = parseFlow(FLOW, 'flows/failing.yaml');
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  const clock = new VirtualClock(Date.UTC(2026, 0, 5, 10));
  sim = createSimulator({ clock });
  const server = sim;
  // Setting a channel variable gets no reply: the request times out.
  const transport = {
    handle: (request: Parameters<Simulator['handle']>[0]) =>
      request.path.endsWith('/variable') ? new Promise<never>(() => {}) : server.handle(request),
    connectEvents: server.connectEvents.bind(server),
  };
  const { logger, records } = memoryLogger();
  const ended: CallEnded[] = [];
  app = createApplication({
    servers: [
      {
        url: 'http://simulator/ari',
        username: 'u',
        password: 'p',
        restTransport: inProcessRestTransport(transport),
        eventTransport: inProcessEventTransport(server),
        eventStream: { pingIntervalMs: 0 },
        restTimeoutMs: 2000,
      },
    ],
    apps: ['failing'],
    call: createFlowCallMachine(parsed.flow),
    clock,
    logger,
    onCallEnded: (c) => ended.push(c),
  });
  await app.start();
  sim.driver.placeCall({ app: 'failing', args: [kind] });
  await clock.advance(10_000);
  expect(ended).toHaveLength(1);
  const warn = records.filter((r) => r.level === 40);
  return { records, warn, ended: ended[0]!, metrics: app.metrics.registry.toPrometheus() };
}

describe('a step that fails is reported where people look', () => {
  it('a refused request: a warn line with the place, the operation and the server message; the call ends recovered', async () => {
    const { warn, ended, metrics } = await runCall('refused');
    const failure = {
      flow: 'failing',
      state: 'refused',
      step: 'originate',
      index: 0,
      at: 'flows/failing.yaml:15:9',
      operation: 'channels.originateWithId',
      status: 400,
      serverMessage: 'Invalid endpoint specified',
      cause: 'refused',
      next: "the state's on.error: sorry",
      unhandled: true,
    };
    expect(warn[0]).toMatchObject({
      msg: "step failed: originate in failing/refused; the state's on.error: sorry",
      call: ended.callId,
      app: 'failing',
      failure,
    });
    // The end is not a plain success: it says how the flow ended and what went wrong.
    expect(warn[1]).toMatchObject({
      msg: 'call ended',
      status: 'recovered',
      by: 'flow',
      state: 'sorry',
      failures: 1,
      failure,
    });
    expect(ended).toMatchObject({ result: 'recovered', failures: 1, failure });
    expect(metrics).toContain('ringflow_step_failures_total{flow="failing",step="originate",status="400"} 1');
    expect(metrics).toContain('ringflow_calls_ended_total{app="failing",status="recovered",by="flow"} 1');
  });

  it('a request with no reply in time: cause timeout, no status; nothing handles it, the call ends failed', async () => {
    const { warn, ended, metrics } = await runCall('timeout');
    expect(warn[0]).toMatchObject({
      msg: 'step failed: setChannelVar in failing/slow; nothing handled it: the flow ends with status failed and hangs up',
      failure: {
        step: 'setChannelVar',
        state: 'slow',
        at: 'flows/failing.yaml:19:9',
        cause: 'timeout',
        unhandled: true,
      },
    });
    expect(warn[0]!.failure).not.toHaveProperty('status');
    expect(ended).toMatchObject({ result: 'failed', failure: { cause: 'timeout' } });
    expect(warn[1]).toMatchObject({ msg: 'call ended', status: 'failed', by: 'flow', state: 'slow' });
    expect(metrics).toContain(
      'ringflow_step_failures_total{flow="failing",step="setChannelVar",status="none"} 1',
    );
  });

  it('an expression that cannot be evaluated: cause expression, with the expression in the message', async () => {
    const { warn, ended } = await runCall('expression');
    expect(warn[0]).toMatchObject({
      failure: {
        step: 'play',
        state: 'broken',
        at: 'flows/failing.yaml:23:9',
        cause: 'expression',
        next: 'nothing handled it: the flow ends with status failed and hangs up',
      },
    });
    expect(String((warn[0]!.failure as { message: string }).message)).toContain('call.args[5]');
    expect(ended.result).toBe('failed');
  });
});
