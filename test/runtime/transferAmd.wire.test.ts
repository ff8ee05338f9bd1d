import { createFlowCallMachine, defineFlow, loadFlowFile } from '@ringflow/dsl';
import type { PublishedEvent } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { appOverWire } from './appOverWire.ts';

/** The user events a flow raised, with their variables. */
function userEvents(world: PublishedEvent[], name: string) {
  return world
    .filter((e) => e.type === 'ChannelUserevent' && (e as { eventname?: string }).eventname === name)
    .map((e) => (e as { userevent?: Record<string, unknown> }).userevent ?? {});
}

/**
 * Transfers and answering-machine detection over real sockets (HTTP and WebSocket on
 * 127.0.0.1), on the virtual clock.
 */
describe('transfer and detectMachine over the wire', () => {
  it('flows/outbound-message.yaml: a person is told apart, presses 1 and is bridged with the operator', async () => {
    const flow = await loadFlowFile(new URL('../../flows/outbound-message.yaml', import.meta.url).pathname);
    const { simulator, app, ended, run, close } = await appOverWire(
      { apps: ['outreach'], call: createFlowCallMachine(flow) },
      { endpoints: { 'PJSIP/operator': { answerAfterMs: 2_000 } } },
    );
    const world: PublishedEvent[] = [];
    simulator.driver.onEvent((event) => world.push(event));
    try {
      await app.start();
      const customer = simulator.driver.placeCall({ from: '5551234', to: '100', app: 'outreach' });
      await run(300);
      simulator.driver.startTalking(customer); // "hello?"
      await run(1_000);
      simulator.driver.stopTalking(customer);
      await run(4_000);
      expect(userEvents(world, 'AmdResult')).toEqual([
        expect.objectContaining({ outcome: 'human', cause: 'HUMAN-800-800' }),
      ]);
      simulator.driver.pressDigits(customer, '1');
      await run(5_000);
      const bridges = await simulator.handle({ method: 'GET', path: '/bridges', query: {} });
      const [bridge] = bridges.body as { channels: string[] }[];
      expect(bridge?.channels).toHaveLength(2);
      expect(bridge?.channels).toContain(customer);
      const operator = bridge!.channels.find((id) => id !== customer)!;
      simulator.driver.hangup(operator);
      await run(3_000);
      expect(ended.find((e) => e.callId === customer)?.outcome).toBe('completed');
    } finally {
      await close();
    }
  });

  it("detector: server: AMD() in the simulator's dialplan hears a machine, then its beep", async () => {
    const flow = defineFlow({
      name: 'amd-server',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            { dial: { endpoint: 'PJSIP/callee', bridge: false, as: 'leg' } },
            { detectMachine: { channel: { expr: 'vars.leg.channelId' }, detector: 'server', as: 'amd' } },
            {
              userEvent: {
                name: 'Detected',
                variables: { outcome: { expr: 'vars.amd.outcome' }, cause: { expr: 'vars.amd.cause' } },
              },
            },
            'hangup',
          ],
        },
      },
    });
    const { simulator, app, run, close } = await appOverWire(
      { apps: ['amd'], call: createFlowCallMachine(flow) },
      {
        dialplan: {
          text: '[ringflow-amd]\nexten => s,1,AMD()\n same => n,Stasis(${RINGFLOW_AMD_APP})\n same => n,Hangup()\n',
        },
        endpoints: { 'PJSIP/callee': { machine: { greetingMs: 4_000, beep: true } } },
      },
    );
    const world: PublishedEvent[] = [];
    simulator.driver.onEvent((event) => world.push(event));
    try {
      await app.start();
      simulator.driver.placeCall({ from: '100', to: 's', app: 'amd' });
      await run(15_000);
      expect(userEvents(world, 'Detected')).toEqual([
        expect.objectContaining({ outcome: 'beep', cause: 'LONGGREETING-1500-1500' }),
      ]);
    } finally {
      await close();
    }
  });
});
