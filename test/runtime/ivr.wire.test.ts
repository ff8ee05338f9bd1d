import { describe, expect, it } from 'vitest';
import { createIvrMachine } from '../../examples/ivr-machine/ivrMachine.ts';
import { appOverWire } from './appOverWire.ts';

const APP = 'ringflow-demo';
const ivr = createIvrMachine({
  agentEndpoint: 'PJSIP/agent',
  operator: { context: 'ivr-exits', extension: 's', label: 'operator' },
});

/**
 * The IVR over real sockets: the simulator's wire server (HTTP + WebSocket on 127.0.0.1), the
 * runtime's real REST client and event stream, time still virtual (see virtualTimeOverWire).
 */
async function setUp() {
  let n = 0;
  const { simulator, app, ended, run, close, requests } = await appOverWire(
    { apps: [APP], call: ivr, ids: () => String(++n) },
    { endpoints: ['PJSIP/agent'], answerOutboundAfterMs: 1000 },
  );
  const summary = () =>
    requests
      .filter((r) => !r.path.startsWith('/api-docs') && !/^\/(asterisk|core)\/ping$/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
  return { simulator, app, ended, run: (ms: number) => run(ms, 50), close, summary };
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
