import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import type { PublishedEvent } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { appOverWire } from './appOverWire.ts';

const APP = 'support';

/**
 * flows/support-queue.yaml over real sockets (HTTP and WebSocket on 127.0.0.1): two agents log
 * out at the desk, two callers queue for the one left, who answers each in turn. The queue is
 * the application's, shared by calls that arrived on the same event socket; its state shows in
 * the metrics.
 */
describe('flows/support-queue.yaml over the wire', () => {
  it('two callers share one agent: answered in turn, positions announced, the queue counted in the metrics', async () => {
    const flow = await loadFlowFile(new URL('../../flows/support-queue.yaml', import.meta.url).pathname);
    const { simulator, app, ended, run, close } = await appOverWire(
      { apps: [APP], call: createFlowCallMachine(flow) },
      { endpoints: { 'PJSIP/201': { answerAfterMs: 4_000 }, 'PJSIP/202': 'answer', 'PJSIP/203': 'answer' } },
    );
    const world: PublishedEvent[] = [];
    simulator.driver.onEvent((event) => world.push(event));
    const userEvents = (name: string) =>
      world
        .filter((e) => e.type === 'ChannelUserevent' && (e as { eventname?: string }).eventname === name)
        .map((e) => {
          const { agent, waited } = (e as { userevent?: Record<string, unknown> }).userevent ?? {};
          return { channel: (e as { channel?: { id?: string } }).channel?.id, agent, waited };
        });
    /** The agent's channel (its name starts with the endpoint) that is up now. */
    const agentChannel = async (endpoint: string) => {
      const list = await simulator.handle({ method: 'GET', path: '/channels', query: {} });
      const found = (list.body as { id: string; name: string; state: string }[]).find(
        (c) => c.name.startsWith(`${endpoint}-`) && c.state === 'Up',
      );
      if (!found) throw new Error(`no call of ${endpoint} is up`);
      return found.id;
    };
    try {
      await app.start();
      for (const agent of ['202', '203']) simulator.driver.placeCall({ from: agent, to: '8002', app: APP });
      await run(5_000);
      const first = simulator.driver.placeCall({ from: '5551001', to: '100', app: APP });
      await run(1_000);
      const second = simulator.driver.placeCall({ from: '5551002', to: '100', app: APP });
      // The first caller joins at 6.4 s and 201 answers at 10.4 s; the second joins at 7.4 s.
      await run(10_000);
      const [queue] = app.queues.all();
      expect(queue?.state.callers.map((c) => c.callId)).toEqual([second]);
      expect(queue?.state.agents.map((a) => [a.endpoint, a.loggedIn, a.activity])).toEqual([
        ['PJSIP/201', true, 'talking'],
        ['PJSIP/202', false, 'idle'],
        ['PJSIP/203', false, 'idle'],
      ]);
      // 37.4 s: the second caller's first announcement: next in line.
      await run(22_000);
      const played = world
        .filter((e) => e.type === 'PlaybackStarted')
        .map((e) =>
          String((e as { playback?: { target_uri?: string; media_uri?: string } }).playback?.media_uri),
        );
      expect(played).toContain('sound:queue-youarenext');

      // 38 s: the first conversation ends; 201 wraps up for 10 s and rings 4 s more: the second
      // caller is answered at 52 s, 44.6 s after it joined.
      simulator.driver.hangup(await agentChannel('PJSIP/201'));
      await run(16_000);
      expect(userEvents('SupportAnswered')).toEqual([{ channel: first, agent: 'PJSIP/201', waited: '4' }]);
      simulator.driver.hangup(await agentChannel('PJSIP/201'));
      await run(5_000);
      expect(userEvents('SupportAnswered')).toEqual([
        { channel: first, agent: 'PJSIP/201', waited: '4' },
        { channel: second, agent: 'PJSIP/201', waited: '45' },
      ]);
      expect(ended.filter((e) => e.callId === first || e.callId === second).map((e) => e.outcome)).toEqual([
        'completed',
        'completed',
      ]);
      const metrics = app.metrics.toPrometheus();
      expect(metrics).toContain('ringflow_queue_callers_total{queue="support",outcome="answered"} 2');
      expect(metrics).toContain('ringflow_queue_callers_waiting{queue="support"} 0');
      expect(metrics).toContain('ringflow_queue_agents{queue="support",state="loggedOut"} 2');
    } finally {
      await close();
    }
  });
});
