import { afterEach, describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { type FlowTestCall, testFlow } from '@ringflow/testing';

let call: FlowTestCall | undefined;
afterEach(async () => {
  await call?.close();
  call = undefined;
});

describe('media and bridge steps on the simulator', () => {
  it('play with barge-in: a key stops the prompt (interrupted with the digit); without, it plays to the end', async () => {
    const flow = defineFlow({
      name: 'greet',
      start: 'a',
      prompts: { en: { welcome: 'sound:demo-congrats' }, fr: { welcome: 'sound:vm-goodbye' } },
      states: {
        a: {
          steps: [
            'answer',
            { play: { prompt: 'welcome', bargeIn: true, as: 'first' } },
            { play: { media: ['sound:beep', 'digits:42'] } },
            {
              userEvent: {
                name: 'Played',
                variables: {
                  outcome: { expr: 'vars.first.outcome' },
                  digit: { expr: "has(vars.first.digit) ? vars.first.digit : 'none'" },
                },
              },
            },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    const [first] = call.expectAction({
      operation: 'channels.play',
      params: { channelId: 'c1', media: 'sound:demo-congrats', lang: 'en' },
    });
    await call.wait('1s');
    await call.press('5');
    call.expectAction({
      operation: 'playbacks.stop',
      params: { playbackId: String(first?.params.playbackId) },
    });
    const [second] = call.expectAction({
      operation: 'channels.play',
      params: { media: 'sound:beep,digits:42' },
    });
    expect(second?.at).toBe(1_100);
    call.expectNoAction('events.userEvent');
    await call.wait('10s');
    call.expectUserEvent('Played', { outcome: 'interrupted', digit: '5' });
    await call.expectEnd({ status: 'completed', by: 'flow' });
  });

  it('play in the caller language picks the catalogue; a key without barge-in does not stop it', async () => {
    const flow = defineFlow({
      name: 'greet',
      start: 'a',
      prompts: { en: { welcome: 'sound:demo-congrats' }, fr: { welcome: 'sound:vm-goodbye' } },
      states: { a: { steps: [{ play: { prompt: 'welcome', as: 'p' } }, 'hangup'] } },
    });
    call = await testFlow(flow, { language: 'fr' });
    call.expectAction({ operation: 'channels.play', params: { media: 'sound:vm-goodbye', lang: 'fr' } });
    await call.wait('200ms');
    await call.press('1');
    call.expectNoAction('playbacks.stop');
    const end = await call.expectEnd({ status: 'completed' });
    expect(end.vars?.p).toMatchObject({ outcome: 'done' });
    expect(end.at).toBeGreaterThan(400);
  });

  it('menu: a listed key takes its choice, with the attempt counts', async () => {
    const flow = defineFlow({
      name: 'menu',
      start: 'm',
      states: {
        m: {
          steps: [
            'answer',
            {
              menu: {
                media: 'sound:demo-instruct',
                timeout: '3s',
                choices: { '1': 'sales', '2': 'support' },
                noMatch: { max: 2, media: ['sound:pbx-invalid'] },
                as: 'pick',
                on: { exhausted: 'bye' },
              },
            },
          ],
        },
        sales: {
          steps: [
            {
              userEvent: {
                name: 'Sales',
                variables: {
                  attempts: { expr: 'vars.pick.attempts' },
                  noMatch: { expr: 'vars.pick.noMatchCount' },
                },
              },
            },
            'hangup',
          ],
        },
        support: { steps: ['hangup'] },
        bye: { steps: ['hangup'] },
      },
    });
    call = await testFlow(flow);
    await call.wait('1s');
    await call.press('9'); // not a choice: no-match announcement, then the menu again
    call.expectAction({
      operation: 'channels.play',
      params: { media: 'sound:pbx-invalid,sound:demo-instruct' },
    });
    await call.press('1');
    call.expectStates(['m', 'sales']);
    call.expectUserEvent('Sales', { attempts: '2', noMatch: '1' });
  });

  it('menu: silence until noInput.max is exhausted (reason noInput)', async () => {
    const flow = defineFlow({
      name: 'menu',
      start: 'm',
      states: {
        m: {
          steps: [
            {
              menu: {
                media: 'sound:beep',
                timeout: '2s',
                choices: { '1': 'done' },
                noInput: { max: 2 },
                as: 'pick',
                on: { exhausted: 'bye' },
              },
            },
          ],
        },
        done: { steps: ['hangup'] },
        bye: {
          steps: [
            { userEvent: { name: 'Exhausted', variables: { reason: { expr: 'vars.pick.reason' } } } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    const end = await call.expectEnd({ status: 'completed', within: '10s' });
    call.expectUserEvent('Exhausted', { reason: 'noInput' });
    call.expectAction({ operation: 'channels.play', params: { media: 'sound:beep' } }, { times: 2 });
    // Two beeps of 424 ms, each followed by the 2 s timeout.
    expect(end.at).toBe(2 * (424 + 2_000));
  });

  it('gather collects up to maxDigits, with validDigits; a key outside them is noMatch', async () => {
    const flow = defineFlow({
      name: 'pin',
      start: 'g',
      states: {
        g: {
          steps: [
            {
              gather: {
                maxDigits: 3,
                validDigits: '0123456789',
                terminator: 'none',
                as: 'code',
                on: { noMatch: 'bad' },
              },
            },
            { userEvent: { name: 'Code', variables: { digits: { expr: 'vars.code.digits' } } } },
            'hangup',
          ],
        },
        bad: {
          steps: [
            { userEvent: { name: 'Bad', variables: { digits: { expr: 'vars.code.digits' } } } },
            'hangup',
          ],
        },
      },
    });
    call = await testFlow(flow);
    await call.press('123');
    call.expectUserEvent('Code', { digits: '123' });
    await call.close();
    call = await testFlow(flow);
    await call.press('1*');
    call.expectVisited('bad');
  });

  it('bridgeMoh starts and stops music on the conference bridge; without a bridge it fails', async () => {
    const flow = defineFlow({
      name: 'hold-room',
      start: 'a',
      states: {
        a: {
          steps: [
            { bridgeMoh: { on: { failed: { set: { noBridge: true } } } } },
            'answer',
            { conference: { name: 'waiting room', type: ['holding'], role: 'participant', mute: true } },
            { bridgeMoh: { class: 'jazz' } },
            { wait: { duration: '5s' } },
            { bridgeMoh: { stop: true } },
            { videoSource: { clear: true } },
            'hangup',
          ],
        },
      },
      vars: { noBridge: false },
    });
    call = await testFlow(flow);
    const end = await call.expectEnd({ status: 'completed', by: 'flow' });
    expect(end.vars).toMatchObject({ noBridge: true });
    const bridgeId = 'ringflow-waiting_room';
    call.expectAction({
      operation: 'bridges.createWithId',
      params: { bridgeId, name: 'waiting room', type: 'holding' },
    });
    call.expectAction({
      operation: 'bridges.addChannel',
      params: { bridgeId, channel: 'c1', role: 'participant', mute: true },
    });
    const [start] = call.expectAction({
      operation: 'bridges.startMoh',
      params: { bridgeId, mohClass: 'jazz' },
    });
    const [stop] = call.expectAction({ operation: 'bridges.stopMoh', params: { bridgeId } });
    expect([start?.status, stop?.status]).toEqual([204, 204]);
    expect((stop?.at ?? 0) - (start?.at ?? 0)).toBe(5_000);
    call.expectAction({ operation: 'bridges.clearVideoSource', params: { bridgeId } });
  });
});
