import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { type FlowTestCall, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

describe('flow steps on the simulator', () => {
  it('hangup sends its reason; the flow ends completed, by the flow', async () => {
    const flow = defineFlow({
      name: 'reject',
      start: 'a',
      states: { a: { steps: [{ wait: { duration: '1500ms' } }, { hangup: { reason: 'busy' } }] } },
    });
    call = await testFlow(flow);
    const end = await call.expectEnd({ status: 'completed', by: 'flow' });
    expect(end.at).toBe(1_500);
    call.expectAction(
      { operation: 'channels.hangup', params: { channelId: 'c1', reason: 'busy' } },
      { times: 1 },
    );
    // Hung up in Ring state without answering: the caller hears busy, not a connected call.
    call.expectNoAction('channels.answer');
  });

  it('set assigns variables in order from expressions; wait holds the call that long', async () => {
    const flow = defineFlow({
      name: 'vars',
      start: 'a',
      vars: { count: 1 },
      states: {
        a: {
          steps: [
            { set: { count: { expr: 'vars.count + 1' }, label: { expr: "'n' + string(vars.count)" } } },
            { wait: { duration: '3s' } },
            {
              userEvent: {
                name: 'Vars',
                variables: { count: { expr: 'vars.count' }, label: { expr: 'vars.label' } },
              },
            },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    await call.wait('2999ms');
    call.expectNoAction('events.userEvent');
    await call.wait('1ms');
    call.expectUserEvent('Vars', { count: '2', label: 'n2' });
  });

  it('a step failing in the error handler state ends the flow failed instead of looping', async () => {
    const flow = defineFlow({
      name: 'fragile',
      start: 'a',
      // Declared (reading an undeclared variable is refused), but null: reading a field of it fails.
      vars: { nothing: null },
      on: { error: 'sorry' },
      states: {
        a: { steps: ['answer', { getChannelVar: { name: 'X', on: { missing: 'broken' } } }] },
        // Fails: there is no conference to leave.
        broken: { steps: ['leaveBridge'], next: 'a' },
        sorry: {
          steps: [
            { userEvent: { name: 'Sorry', variables: { reason: { expr: 'vars.nothing.here' } } } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    const end = await call.expectEnd({ status: 'failed', by: 'flow', within: '1s' });
    expect(end.at).toBe(0);
    call.expectStates(['a', 'broken', 'sorry']);
    // The handler was entered once, its failing step ended the flow; the call is hung up once
    // (its own hangup events do not turn the failed run into a caller hangup).
    call.expectNoAction('events.userEvent');
    call.expectAction('DELETE /channels/c1', { times: 1 });
  });

  it('runs a flow whose names have "-": states, prompts, variables read with brackets', async () => {
    const flow = defineFlow({
      name: 'dashes',
      start: 'ask-zip',
      vars: { 'tries-left': 2 },
      prompts: { en: { 'ask-zip': 'sound:demo-instruct' } },
      states: {
        'ask-zip': {
          steps: [
            'answer',
            { gather: { prompt: 'ask-zip', maxDigits: 1, as: 'zip-code' } },
            {
              userEvent: {
                name: 'Zip',
                variables: { zip: { expr: "vars['zip-code'].digits + string(vars['tries-left'])" } },
              },
            },
          ],
          next: 'all-done',
        },
        'all-done': { steps: ['hangup'] },
      },
    });
    call = await testFlow(flow);
    await call.wait('1s');
    await call.press('7');
    await call.wait('1s');
    call.expectUserEvent('Zip', { zip: '72' });
    call.expectStates(['ask-zip', 'all-done']);
  });
});
