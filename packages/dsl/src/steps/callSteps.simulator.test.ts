import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { type FlowTestCall, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

async function get(c: FlowTestCall, path: string): Promise<{ status: number; body: unknown }> {
  const reply = await c.simulator.handle({ method: 'GET', path, query: {} });
  return { status: reply.status, body: reply.body };
}

describe('call steps on the simulator', () => {
  it('snoop: spy and whisper channels on the call, delivered to the application (started with the id)', async () => {
    const flow = defineFlow({
      name: 'supervise',
      start: 'a',
      states: {
        a: {
          steps: [
            'answer',
            { snoop: { as: 'spy' } },
            { snoop: { spy: 'none', whisper: 'out', appArgs: 'coach', as: 'whisper' } },
            {
              userEvent: {
                name: 'Snooping',
                variables: {
                  spy: { expr: 'vars.spy.channelId' },
                  whisper: { expr: 'vars.whisper.channelId' },
                },
              },
            },
            { wait: { duration: '10s' } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    const [spy, whisper] = call.expectAction({ operation: 'channels.snoopChannelWithId' });
    expect(spy?.params).toMatchObject({ channelId: 'c1', spy: 'both', whisper: 'none', app: 'flow-test' });
    expect(whisper?.params).toMatchObject({
      spy: 'none',
      whisper: 'out',
      app: 'flow-test',
      appArgs: 'coach',
    });
    call.expectUserEvent('Snooping', {
      spy: String(spy?.params.snoopId),
      whisper: String(whisper?.params.snoopId),
    });
    // Both snoop channels exist and sit in the application; they are not new calls of the flow.
    for (const id of [spy?.params.snoopId, whisper?.params.snoopId]) {
      const channel = await get(call, `/channels/${String(id)}`);
      expect(channel.status).toBe(200);
      expect((channel.body as { dialplan: { app_name: string } }).dialplan.app_name).toBe('Stasis');
    }
    // Their StasisStart did not start the flow again on them.
    expect(
      call
        .actions()
        .every((a) => !String(a.path).includes('/snoop-') || a.operation === 'channels.snoopChannelWithId'),
    ).toBe(true);
    await call.expectEnd({ status: 'completed', by: 'flow', within: '11s' });
    // Snoops end with the call they spy on.
    expect((await get(call, `/channels/${String(spy?.params.snoopId)}`)).status).toBe(404);
  });

  it('deviceState sets a Stasis: device (from an expression); mailbox sets message counts', async () => {
    const flow = defineFlow({
      name: 'presence',
      start: 'a',
      states: {
        a: {
          steps: [
            { deviceState: { device: { expr: "'Stasis:agent-' + call.caller.number" }, state: 'BUSY' } },
            {
              mailbox: {
                name: '100@default',
                oldMessages: 2,
                newMessages: { expr: 'int(call.extension) - 97' },
              },
            },
            { deviceState: { device: 'Stasis:bad', state: 'INUSE', as: 'dnd', if: 'false' } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, { caller: '5550001', extension: '100' });
    await call.expectEnd({ status: 'completed', by: 'flow', within: '1s' });
    call.expectAction(
      {
        operation: 'deviceStates.update',
        params: { deviceName: 'Stasis:agent-5550001', deviceState: 'BUSY' },
      },
      { times: 1 },
    );
    call.expectAction({
      operation: 'mailboxes.update',
      params: { mailboxName: '100@default', oldMessages: 2, newMessages: 3 },
    });
    expect((await get(call, '/deviceStates/Stasis:agent-5550001')).body).toMatchObject({ state: 'BUSY' });
    expect((await get(call, '/mailboxes/100@default')).body).toMatchObject({
      old_messages: 2,
      new_messages: 3,
    });
  });

  it('a mailbox name the client refuses fails the step before any request, saying which field', async () => {
    const flow = defineFlow({
      name: 'refused',
      start: 'a',
      states: {
        a: {
          steps: [
            {
              mailbox: {
                name: { expr: "''" },
                oldMessages: 0,
                newMessages: 1,
                as: 'mwi',
                on: { failed: 'failed' },
              },
            },
            'hangup',
          ],
        },
        failed: {
          steps: [
            { userEvent: { name: 'Refused', variables: { why: { expr: 'vars.mwi.message' } } } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    await call.expectEnd({ status: 'completed', within: '1s' });
    call.expectNoAction('mailboxes.update');
    call.expectUserEvent('Refused', { why: /mailboxName/ });
  });

  it('sendMessage sends a text message out through the endpoint', async () => {
    const flow = defineFlow({
      name: 'sms',
      start: 'a',
      states: {
        a: {
          steps: [
            {
              sendMessage: {
                to: { expr: "'pjsip:' + call.caller.number" },
                from: 'pjsip:ivr',
                body: 'Thanks for calling',
                variables: { 'X-Campaign': 'spring' },
              },
            },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, { caller: '5550002' });
    await call.expectEnd({ status: 'completed', within: '1s' });
    const [sent] = call.expectAction({
      operation: 'endpoints.sendMessage',
      params: { to: 'pjsip:5550002', from: 'pjsip:ivr', body: 'Thanks for calling' },
    });
    expect(sent?.status).toBe(202);
    expect(call.simulator.driver.outbound.filter((o) => o.kind === 'message')).toHaveLength(1);
    expect(call.simulator.driver.outbound.find((o) => o.kind === 'message')?.detail).toMatchObject({
      to: 'pjsip:5550002',
      body: 'Thanks for calling',
    });
  });

  it('userEvent carries variables to another application, sourced from the call', async () => {
    const flow = defineFlow({
      name: 'notify',
      start: 'a',
      states: {
        a: {
          steps: [
            {
              userEvent: {
                name: { expr: "'Call' + call.extension" },
                application: 'flow-test',
                variables: { caller: { expr: 'call.caller.number' }, vip: true },
              },
            },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow, { extension: '42' });
    await call.expectEnd({ status: 'completed', within: '1s' });
    call.expectAction({
      operation: 'events.userEvent',
      params: { eventName: 'Call42', application: 'flow-test', source: 'channel:c1' },
    });
    call.expectUserEvent('Call42', { caller: '5551234', vip: 'true' });
    expect(call.events('ChannelUserevent')[0]?.event).toMatchObject({
      eventname: 'Call42',
      userevent: { caller: '5551234', vip: 'true' },
    });
  });

  it('talkDetection: the caller talking raises talkingStarted / talkingFinished; off removes it', async () => {
    const flow = defineFlow({
      name: 'talk',
      start: 'listen',
      states: {
        listen: {
          steps: ['answer', { talkDetection: { silenceThreshold: 1200, talkingThreshold: 300 } }],
          on: { talkingStarted: 'talking' },
        },
        talking: {
          on: {
            talkingFinished: {
              goto: 'done',
              set: { talkedMs: { expr: 'event.duration' } },
            },
          },
        },
        done: {
          steps: [
            { talkDetection: { enabled: false } },
            { userEvent: { name: 'Talked', variables: { ms: { expr: 'vars.talkedMs' } } } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    call.expectAction({
      operation: 'channels.setChannelVar',
      params: { channelId: 'c1', variable: 'TALK_DETECT(set)', value: '1200,300' },
    });
    await call.wait('1s');
    call.expectState('listen');
    await call.talk('2500ms');
    call.expectStates(['listen', 'talking', 'done']);
    call.expectUserEvent('Talked', { ms: '2500' });
    call.expectAction({ operation: 'channels.setChannelVar', params: { variable: 'TALK_DETECT(remove)' } });
    expect(call.events('ChannelTalkingStarted').map((e) => e.at)).toEqual([1_000]);
    expect(call.events('ChannelTalkingFinished').map((e) => e.at)).toEqual([3_500]);
  });
});
