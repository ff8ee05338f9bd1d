import { loadFlowFile } from '@ringflow/dsl';
import { type FlowTestCall, testFlow } from '@ringflow/testing';
import { afterEach, describe, expect, it } from 'vitest';

// The same flow as ivr.test.yaml, tested from TypeScript: the checks a scenario file cannot
// express (counts, exact sequences of prompts, values computed from the run).
const flow = await loadFlowFile(new URL('./ivr.yaml', import.meta.url).pathname);
const MAIN_MENU = 'sound:demo-instruct,sound:vm-enter-num-to-call';

/** What the caller heard, one entry per playback: its media list. */
function heard(call: FlowTestCall): string[] {
  return call.actions('channels.play').map((a) => String(a.params.media));
}

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

describe('flows/ivr.yaml from TypeScript (virtual time)', () => {
  it('counts no-input: three silences re-prompt twice with didNotHear, then the operator is bridged', async () => {
    call = await testFlow(flow, { farEnds: { 'PJSIP/operator': 'answer' } });
    // 3 x (11.6 s of menu prompt + 6 s of silence), retry prompts, then the transfer announcement.
    await call.wait('65s');
    expect(heard(call).filter((m) => m.endsWith(MAIN_MENU))).toEqual([
      MAIN_MENU,
      `sound:please-try-again,${MAIN_MENU}`,
      `sound:please-try-again,${MAIN_MENU}`,
    ]);
    const [dial] = call.expectAction({
      operation: 'channels.originateWithId',
      params: { endpoint: 'PJSIP/operator', app: 'flow-test', appArgs: 'dialed', timeout: 25 },
    });
    call.expectAction({
      operation: 'bridges.addChannel',
      params: { channel: `c1,${dial!.params.channelId}` },
    });
    await call.hangUpFarEnd('PJSIP/operator');
    await call.expectEnd({ status: 'completed', by: 'flow', within: '80s' });
    expect(call.states().slice(-2)).toEqual(['operator', 'goodbye']);
  });

  it('counts no-match separately from no-input: wrong keys play notAnOption, and exhaust after three', async () => {
    call = await testFlow(flow, { farEnds: { 'PJSIP/operator': 'noAnswer' } });
    await call.wait('1500ms');
    for (const key of ['9', '8', '7']) {
      await call.press(key);
      await call.wait('300ms');
    }
    expect(heard(call).filter((m) => m.endsWith(MAIN_MENU))).toEqual([
      MAIN_MENU,
      `sound:pbx-invalid,sound:please-try-again,${MAIN_MENU}`,
      `sound:pbx-invalid,sound:please-try-again,${MAIN_MENU}`,
    ]);
    await call.wait('3s');
    call.expectState('operator');
  });

  it('records the voicemail under the call id and announces it with its length', async () => {
    call = await testFlow(flow, { caller: '5550199' });
    await call.wait('2s');
    await call.press('3');
    await call.wait('8s');
    await call.talk('4s'); // the caller speaks, then 5 s of silence end the recording
    const end = await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
    const [event] = call.expectUserEvent('VoicemailLeft', { recording: 'voicemail/c1' });
    expect(
      Number((event!.body as { variables: { seconds: string } }).variables.seconds),
    ).toBeGreaterThanOrEqual(4);
    expect(end.vars).toMatchObject({ voicemailName: 'voicemail/c1' });
    expect(heard(call).slice(-2)).toEqual(['sound:auth-thankyou', 'sound:vm-goodbye']);
  });
});
