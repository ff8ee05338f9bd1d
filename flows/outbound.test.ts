import { loadFlowFile } from '@ringflow/dsl';
import { type FlowTestCall, testFlow } from '@ringflow/dsl/testing';
import { afterEach, describe, expect, it } from 'vitest';

// flows/outbound.yaml when the far end changes between attempts (busy, then it answers): a
// scenario file gives each endpoint one behaviour for the whole call, so this test leaves the
// far end to itself ('noAnswer': nothing automatic) and drives each attempt through the
// simulator's driver, as a phone would.
const flow = await loadFlowFile(new URL('./outbound.yaml', import.meta.url).pathname);

/** The channel ids the flow dialled, in order. */
function dialled(call: FlowTestCall): string[] {
  return call.actions('channels.originateWithId').map((a) => String(a.params.channelId));
}

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

describe('flows/outbound.yaml from TypeScript (virtual time)', () => {
  it('busy at the first attempt, answered at the second after the 30 s wait', async () => {
    call = await testFlow(flow, { caller: '5551234', farEnds: { 'PJSIP/customer': 'noAnswer' } });
    await call.wait('3s'); // "please hold" played, first attempt ringing
    const [first] = dialled(call);
    expect(first).toBeDefined();
    call.simulator.driver.reject(String(first), 17);
    await call.wait('1s');
    call.expectVisited('retry-or-give-up', 'waiting');
    call.expectNoAction({ operation: 'bridges.create' });

    // "sorry, please try again" and the wait between attempts: nothing is dialled before 30 s.
    await call.wait('20s');
    expect(dialled(call)).toHaveLength(1);
    await call.wait('20s');
    const attempts = dialled(call);
    expect(attempts).toHaveLength(2);
    const second = String(attempts[1]);
    const gap = call.actions('channels.originateWithId').map((a) => a.at);
    expect((gap[1] ?? 0) - (gap[0] ?? 0)).toBeGreaterThanOrEqual(30_000);

    call.simulator.driver.answer(second);
    await call.wait('1s');
    call.expectAction({ operation: 'bridges.addChannel', params: { channel: `c1,${second}` } }, { times: 1 });
    await call.wait('10s');
    await call.hangUpFarEnd('PJSIP/customer');
    await call.expectEnd({ status: 'completed', by: 'flow', within: '2m' });
    call.expectUserEvent('OutboundAnswered', { attempts: 2, number: 'PJSIP/customer' });
    call.expectStates(['start', 'dialing', 'retry-or-give-up', 'waiting', 'dialing', 'talked']);
  });
});
