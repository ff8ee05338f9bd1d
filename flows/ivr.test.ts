import { afterEach, describe, expect, it } from 'vitest';
import { loadFlowFile } from '../packages/dsl/src/parseFlow.ts';
import { runFlowOnSimulator } from '../packages/dsl/src/testing/runFlowOnSimulator.ts';

const flow = await loadFlowFile(new URL('./ivr.yaml', import.meta.url).pathname);
const SUNDAY = Date.UTC(2026, 0, 4, 10, 0);

/** What the caller heard, one entry per playback: its media list. */
function playbacks(run: Awaited<ReturnType<typeof runFlowOnSimulator>>): string[] {
  return run
    .requests()
    .filter((r) => r.method === 'POST' && /^\/channels\/callee\/play/.test(r.path))
    .map((r) => String(r.query.media));
}

const MAIN_MENU = 'sound:demo-instruct,sound:vm-enter-num-to-call';
let run: Awaited<ReturnType<typeof runFlowOnSimulator>> | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('flows/ivr.yaml on the simulator (virtual time)', () => {
  it('open hours: menu 1 -> sales sub-menu 2 -> voicemail, recorded, announced, goodbye', async () => {
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(2_000); // welcome played, main menu playing
    await run.press('1');
    await run.clock.advance(1_000);
    await run.press('2');
    await run.clock.advance(60_000);
    expect(run.visited()).toEqual(['greet', 'main-menu', 'sales-menu', 'voicemail', 'goodbye']);
    const record = run.requests().find((r) => r.path === '/channels/callee/record');
    expect(record?.query).toMatchObject({
      name: 'voicemail/callee',
      maxSilenceSeconds: '5',
      maxDurationSeconds: '120',
      beep: 'true',
      terminateOn: '#',
    });
    const event = run.requests().find((r) => r.path === '/events/user/VoicemailLeft');
    expect(event?.body).toMatchObject({ variables: { recording: 'voicemail/callee' } });
    expect(playbacks(run).slice(-2)).toEqual(['sound:auth-thankyou', 'sound:vm-goodbye']);
    expect(run.requests().at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/channels/callee',
      query: { reason: 'normal' },
    });
  });

  it('closed hours (Sunday): closed message, then voicemail', async () => {
    run = await runFlowOnSimulator(flow, { startMs: SUNDAY });
    await run.clock.advance(60_000);
    expect(run.visited().slice(0, 3)).toEqual(['greet', 'closed', 'voicemail']);
    expect(playbacks(run)).toContain('sound:ss-noservice');
  });

  it('counts no-input: three silences re-prompt twice with didNotHear, then the operator is dialled and bridged', async () => {
    run = await runFlowOnSimulator(flow);
    // 3 x (11.6 s of menu prompt + 6 s of silence), retry prompts, then the transfer announcement.
    await run.clock.advance(65_000);
    const menus = playbacks(run).filter((m) => m.endsWith(MAIN_MENU));
    expect(menus).toEqual([
      MAIN_MENU,
      `sound:please-try-again,${MAIN_MENU}`,
      `sound:please-try-again,${MAIN_MENU}`,
    ]);
    expect(run.visited()).toContain('operator');
    const dial = run.requests().find((r) => r.method === 'POST' && r.path.startsWith('/channels/channel-'));
    expect(dial?.query).toMatchObject({
      endpoint: 'PJSIP/operator',
      app: 'ivr',
      appArgs: 'dialed',
      timeout: '25',
    });
    const peer = dial!.path.split('/')[2]!;
    const add = run.requests().find((r) => /\/bridges\/[^/]+\/addChannel/.test(r.path));
    expect(String(add?.query.channel)).toBe(`callee,${peer}`);
    // The operator hangs up: the dial step completes and the flow says goodbye.
    await run.app.client().channels.hangup({ channelId: peer });
    await run.clock.advance(5_000);
    expect(run.visited().slice(-2)).toEqual(['operator', 'goodbye']);
  });

  it('counts no-match separately: wrong keys play notAnOption, and exhaust after three', async () => {
    run = await runFlowOnSimulator(flow, { answerOutboundAfterMs: null });
    await run.clock.advance(1_500);
    await run.press('9');
    await run.clock.advance(500);
    await run.press('8');
    await run.clock.advance(500);
    await run.press('7');
    await run.clock.advance(2_000);
    const menus = playbacks(run).filter((m) => m.endsWith(MAIN_MENU));
    expect(menus).toEqual([
      MAIN_MENU,
      `sound:pbx-invalid,sound:please-try-again,${MAIN_MENU}`,
      `sound:pbx-invalid,sound:please-try-again,${MAIN_MENU}`,
    ]);
    expect(run.visited()).toContain('operator');
  });

  it('a caller hanging up anywhere runs the flow-wide hangup handler', async () => {
    run = await runFlowOnSimulator(flow);
    await run.clock.advance(3_000);
    await run.hangUp();
    await run.clock.advance(1_000);
    expect(run.visited().at(-1)).toBe('caller-left');
    expect(run.requests().some((r) => r.path === '/events/user/CallerLeft')).toBe(true);
  });
});
