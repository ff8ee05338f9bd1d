import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import type { CallEnded, InProcessServer, WatchdogOptions } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { inProcessApp, losingEvents, waitForHangup } from './harness.ts';

/**
 * No wait without an end (issue 27): an event lost where nothing can tell (no gap in the stream)
 * leaves its call waiting; the watchdog asks the server once the wait is past its bound and tells
 * the machine what it missed. The same calls with `watchdog: false` stay stuck, which is what
 * each test checks first.
 */

const APP = 'ringflow-demo';
const flow = await loadFlowFile(new URL('../../flows/ivr.yaml', import.meta.url).pathname);
const machine = createFlowCallMachine(flow, { inputs: { openingHours: 'Mon-Sun 00:00-24:00' } });

/** The IVR on a simulator whose events matching `lost` are lost, with or without the watchdog. */
function ivrLosing(
  lost: (event: Readonly<Record<string, unknown>>) => boolean,
  watchdog: false | WatchdogOptions | undefined,
  wrap: (server: InProcessServer) => InProcessServer = (s) => s,
  call: AnyStateMachine = machine,
) {
  const clock = new VirtualClock();
  const simulator = createSimulator({ clock, endpoints: { 'PJSIP/operator': { answerAfterMs: 3000 } } });
  const server = wrap(losingEvents(simulator, lost));
  const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server }], {
    apps: [APP],
    call,
    ...(watchdog === undefined ? {} : { watchdog }),
  });
  const ended: CallEnded[] = [];
  app.callEnded$.subscribe((e) => ended.push(e));
  const plays = (media: string) =>
    requests.filter(
      (r) => r.method === 'POST' && r.path.endsWith('/play') && r.query.media?.startsWith(media),
    );
  return { clock, simulator, app, requests, ended, plays };
}

const greetingEnd = (e: Readonly<Record<string, unknown>>) =>
  e.type === 'PlaybackFinished' && (e.playback as { media_uri?: string }).media_uri === 'sound:hello-world';

describe('the watchdog: a wait past its bound is checked with the server', () => {
  it("a greeting's PlaybackFinished lost: the call goes on to the menu once the watchdog asks", async () => {
    for (const watchdog of [false, undefined] as const) {
      const t = ivrLosing(greetingEnd, watchdog);
      await t.app.start();
      t.simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
      await t.clock.advance(60_000);
      if (watchdog === false) {
        // The control: without the watchdog the caller hears nothing more, for good.
        expect(t.plays('sound:demo-instruct')).toHaveLength(0);
        expect(t.app.activeCalls()).toHaveLength(1);
      } else {
        expect(t.plays('sound:demo-instruct').length).toBeGreaterThan(0);
        expect(t.app.metrics.eventsRecovered.get({ type: 'PlaybackFinished', reason: 'watchdog' })).toBe(1);
        expect(t.app.metrics.watchdogChecks.get({ result: 'recovered' })).toBe(1);
        expect(t.plays('sound:hello-world')).toHaveLength(1);
        t.simulator.driver.hangup('caller-1');
        await t.clock.advance(6_000);
        expect(t.ended.map((e) => [e.outcome, e.result])).toEqual([['completed', 'hungUp']]);
      }
      await t.app.stop();
      t.simulator.close();
    }
  });

  it('the voicemail’s RecordingFinished lost (a recording the flow names): the message is reported once the watchdog asks', async () => {
    const recordingEnd = (e: Readonly<Record<string, unknown>>) => e.type === 'RecordingFinished';
    for (const watchdog of [false, undefined] as const) {
      const t = ivrLosing(recordingEnd, watchdog);
      await t.app.start();
      t.simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
      await t.clock.advance(2_500);
      t.simulator.driver.pressDigits('caller-1', '3');
      // The intro, the beep, then 5 s of silence end the recording (voicemail/caller-1).
      await t.clock.advance(120_000);
      const reported = t.requests.filter(
        (r) => r.method === 'POST' && r.path === '/events/user/VoicemailLeft',
      );
      if (watchdog === false) {
        // The control: the recording ended on the server, the flow still waits for it.
        expect(reported).toHaveLength(0);
        expect(t.app.activeCalls()).toHaveLength(1);
      } else {
        expect(reported).toHaveLength(1);
        expect(t.app.metrics.eventsRecovered.get({ type: 'RecordingFinished', reason: 'watchdog' })).toBe(1);
        await t.clock.advance(10_000);
        expect(t.ended.map((e) => [e.outcome, e.result])).toEqual([['completed', 'completed']]);
      }
      await t.app.stop();
      t.simulator.close();
    }
  });

  it('the operator answers but the StasisStart of the leg is lost: bridged once the watchdog asks, not given up as no answer', async () => {
    const legAnswered = (e: Readonly<Record<string, unknown>>) =>
      e.type === 'StasisStart' && (e.channel as { id: string }).id !== 'caller-1';
    for (const watchdog of [false, undefined] as const) {
      const t = ivrLosing(legAnswered, watchdog);
      await t.app.start();
      t.simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
      await t.clock.advance(2_500);
      t.simulator.driver.pressDigits('caller-1', '0');
      await t.clock.advance(60_000);
      const bridged = t.requests.filter(
        (r) => r.method === 'POST' && /^\/bridges\/[^/]+\/addChannel$/.test(r.path),
      );
      if (watchdog === false) {
        // Without it the flow's dial safety net gives the answered operator up as no answer.
        expect(bridged).toHaveLength(0);
      } else {
        expect(bridged).toHaveLength(1);
        expect(t.app.metrics.eventsRecovered.get({ type: 'StasisStart', reason: 'watchdog' })).toBe(1);
      }
      await t.app.stop();
      t.simulator.close();
    }
  });

  it('another client sends the call back to the dialplan and its StasisEnd is lost: the call ends, its channel left alone', async () => {
    const stasisEnd = (e: Readonly<Record<string, unknown>>) => e.type === 'StasisEnd';
    // Checked after 20 s, while the channel waits a minute in the dialplan (stasis-ivr,wait,1);
    // the machine answers and waits (a flow's next request would find out first: 409).
    const t = ivrLosing(stasisEnd, { channelMs: 20_000 }, undefined, waitForHangup);
    await t.app.start();
    t.simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
    await t.clock.advance(3_000);
    const moved = await t.simulator.handle({
      method: 'POST',
      path: '/channels/caller-1/continue',
      query: { context: 'stasis-ivr', extension: 'wait', priority: '1' },
    });
    expect(moved.status).toBe(204);
    await t.clock.advance(30_000);
    expect(t.simulator.hasChannel('caller-1')).toBe(true);
    expect(t.ended.map((e) => e.outcome)).toEqual(['reconciled']);
    expect(t.app.metrics.eventsRecovered.get({ type: 'StasisEnd', reason: 'watchdog' })).toBe(1);
    expect(t.requests.filter((r) => r.method === 'DELETE' && r.path === '/channels/caller-1')).toHaveLength(
      0,
    );
    await t.app.stop();
    t.simulator.close();
  });

  it('the StasisEnd is lost and the flow hears 409 "not in Stasis" on its next request: its hang-up path runs, the channel is not hung up', async () => {
    const stasisEnd = (e: Readonly<Record<string, unknown>>) => e.type === 'StasisEnd';
    const t = ivrLosing(stasisEnd, undefined);
    await t.app.start();
    t.simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
    await t.clock.advance(500);
    // During the greeting another client sends the call to the dialplan, where it waits a minute.
    const moved = await t.simulator.handle({
      method: 'POST',
      path: '/channels/caller-1/continue',
      query: { context: 'stasis-ivr', extension: 'wait', priority: '1' },
    });
    expect(moved.status).toBe(204);
    await t.clock.advance(10_000);
    // The menu's prompt was refused (409): the flow learned the call had left, and the runtime
    // asked the server at once (no watchdog wait).
    expect(t.ended.map((e) => [e.outcome, e.result])).toEqual([['reconciled', 'hungUp']]);
    expect(t.app.metrics.eventsRecovered.get({ type: 'StasisEnd', reason: 'refusal' })).toBe(1);
    expect(t.requests.filter((r) => r.path === '/events/user/CallerLeft')).toHaveLength(1);
    expect(t.requests.filter((r) => r.method === 'DELETE' && r.path === '/channels/caller-1')).toHaveLength(
      0,
    );
    expect(t.simulator.hasChannel('caller-1')).toBe(true);
    await t.app.stop();
    t.simulator.close();
  });

  it('the server cannot say what became of the prompt: the call ends as failed and is hung up', async () => {
    // Every lookup of a playback fails (500), as from a server in trouble.
    const failingLookups = (server: InProcessServer): InProcessServer => ({
      handle: (request) =>
        request.method === 'GET' && request.path.startsWith('/playbacks/')
          ? Promise.resolve({ status: 500, body: { message: 'Internal server error' } })
          : server.handle(request),
      connectEvents: (request, deliver) => server.connectEvents(request, deliver),
    });
    const t = ivrLosing(greetingEnd, undefined, failingLookups);
    await t.app.start();
    t.simulator.driver.placeCall({ channelId: 'caller-1', from: '5551234', to: '100' });
    await t.clock.advance(60_000);
    expect(t.ended.map((e) => e.outcome)).toEqual(['failed']);
    expect(t.app.metrics.watchdogChecks.get({ result: 'failed' })).toBe(3);
    expect(t.requests.filter((r) => r.method === 'DELETE' && r.path === '/channels/caller-1')).toHaveLength(
      1,
    );
    expect(t.app.metrics.callsOverdue.get()).toBe(0);
    await t.app.stop();
    t.simulator.close();
  });

  it('fifty calls lose their greeting end together: at most maxChecks are checked at once, every call goes on', async () => {
    let inFlight = 0;
    let most = 0;
    let clock!: VirtualClock;
    // Each playback lookup takes 200 ms of the call's clock, so checks overlap.
    const slowLookups = (server: InProcessServer): InProcessServer => ({
      handle: async (request) => {
        if (request.method !== 'GET' || !request.path.startsWith('/playbacks/'))
          return server.handle(request);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => clock.setTimeout(resolve, 200));
        inFlight--;
        return server.handle(request);
      },
      connectEvents: (request, deliver) => server.connectEvents(request, deliver),
    });
    const t = ivrLosing(greetingEnd, { maxChecks: 5 }, slowLookups);
    clock = t.clock;
    await t.app.start();
    for (let i = 1; i <= 50; i++)
      t.simulator.driver.placeCall({ channelId: `caller-${i}`, from: '5551234', to: '100' });
    await t.clock.advance(60_000);
    expect(new Set(t.plays('sound:demo-instruct').map((r) => r.path)).size).toBe(50);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(5);
    await t.app.stop();
    t.simulator.close();
  });
});
