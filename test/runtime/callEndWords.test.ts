import { Writable } from 'node:stream';
import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, formatDiagnostic, parseFlow } from '@ringflow/dsl';
import {
  type CallEnded,
  callEndOf,
  createApplication,
  formatCallEnd,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { testFlow } from '@ringflow/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

/**
 * Issue 28's "one word for how a call ended": a caller who hangs up while talking to the agent
 * was `completed` in the log, `outcome="completed"` in the metrics, `completed (flow hungUp)` in
 * the console and `status: hungUp, by: caller` in a scenario. Now the runtime says it once and
 * every surface reads it: here the log line, the metric, the report and `ringflow test`'s end.
 */
const DESK = `name: desk
start: talk
states:
  talk:
    steps:
      - answer
      - dial: { endpoint: PJSIP/201, timeout: 20s, on: { completed: goodbye } }
    next: goodbye
  goodbye:
    steps:
      - hangup
`;

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

/** One call to the desk on the in-process simulator; `who` hangs up 5 s into the conversation. */
function desk() {
  const parsed = parseFlow(DESK, 'flows/desk.yaml');
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  return parsed.flow;
}

async function deskCall(who: 'caller' | 'agent') {
  const clock = new VirtualClock(Date.UTC(2026, 10, 28, 10));
  const sim = createSimulator({ clock, endpoints: { 'PJSIP/201': { answerAfterMs: 1000 } } });
  const { logger, records } = memoryLogger();
  const ended: CallEnded[] = [];
  const app = createApplication({
    servers: [
      {
        url: 'http://simulator/ari',
        username: 'u',
        password: 'p',
        restTransport: inProcessRestTransport(sim),
        eventTransport: inProcessEventTransport(sim),
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    apps: ['desk'],
    call: createFlowCallMachine(desk()),
    clock,
    logger,
    onCallEnded: (c) => ended.push(c),
  });
  try {
    await app.start();
    let agent: string | undefined;
    sim.driver.onEvent((event) => {
      const channel = event.channel as { id?: string; name?: string } | undefined;
      if (event.type === 'ChannelCreated' && channel?.name?.startsWith('PJSIP/201')) agent = channel.id;
    });
    const caller = sim.driver.placeCall({ app: 'desk' });
    await clock.advance(2_000);
    expect(agent, 'the agent was dialled').toBeDefined();
    await clock.advance(5_000);
    sim.driver.hangup(who === 'caller' ? caller : agent!);
    await clock.advance(5_000);
    expect(ended).toHaveLength(1);
    const line = records.find((r) => r.msg === 'call ended');
    return { ended: ended[0]!, line, metrics: app.metrics.registry.toPrometheus() };
  } finally {
    await app.stop();
    sim.close();
  }
}

describe('one vocabulary of how a call ended', () => {
  it('a caller who hangs up while talking to the agent: hungUp, by the caller, everywhere', async () => {
    const { ended, line, metrics } = await deskCall('caller');
    expect(ended).toMatchObject({ status: 'hungUp', by: 'caller' });
    expect(line).toMatchObject({ status: 'hungUp', by: 'caller' });
    expect(line).toMatchObject({ outcome: 'completed' }); // the session's word stays, for tools
    expect(metrics).toContain('ringflow_calls_ended_total{app="desk",status="hungUp",by="caller"} 1');
    expect(formatCallEnd(ended)).toBe('hungUp, by the caller');

    // ringflow test (and a scenario saved from the console) say the same.
    const call = await testFlow(desk(), { farEnds: { 'PJSIP/201': { answerAfterMs: 1000 } } });
    await call.wait('7s');
    await call.hangUp();
    await call.expectEnd({ status: 'hungUp', by: 'caller' });
    await call.close();
  });

  it('the agent hangs up, the flow says goodbye and hangs up: completed, by the flow', async () => {
    const { ended, line, metrics } = await deskCall('agent');
    expect(ended).toMatchObject({ status: 'completed', by: 'flow', outcome: 'completed' });
    expect(line).toMatchObject({ status: 'completed', by: 'flow' });
    expect(metrics).toContain('ringflow_calls_ended_total{app="desk",status="completed",by="flow"} 1');
  });

  it('maps every session outcome to a status and who ended it', () => {
    expect(callEndOf('completed', 'completed', 'flow')).toEqual({ status: 'completed', by: 'flow' });
    expect(callEndOf('completed', 'recovered', 'flow')).toEqual({ status: 'recovered', by: 'flow' });
    // The caller left first: hungUp, whatever the hangup handler reported afterwards.
    expect(callEndOf('completed', 'completed', 'caller')).toEqual({ status: 'hungUp', by: 'caller' });
    expect(callEndOf('completed', undefined, 'dialplan')).toEqual({ status: 'continued', by: 'dialplan' });
    // Redirected (a blind transfer to an endpoint) by its logic.
    expect(callEndOf('completed', 'continued', 'flow', true)).toEqual({ status: 'transferred', by: 'flow' });
    // Taken out of the application by someone else; a hand-written machine reports no result.
    expect(callEndOf('completed', undefined, 'server')).toEqual({ status: 'hungUp', by: 'server' });
    expect(callEndOf('reconciled', undefined, 'server')).toEqual({ status: 'hungUp', by: 'server' });
    expect(callEndOf('failed', 'failed', undefined)).toEqual({ status: 'failed', by: 'flow' });
    expect(callEndOf('unanswered', undefined, 'caller')).toEqual({ status: 'unanswered', by: 'caller' });
    for (const outcome of ['drained', 'stopped', 'detached'] as const)
      expect(callEndOf(outcome, 'completed', 'caller')).toEqual({ status: outcome, by: 'application' });
  });
});
