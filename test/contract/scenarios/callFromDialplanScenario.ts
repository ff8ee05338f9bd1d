import { expect } from 'vitest';
import type { ContractSession } from '../ContractSession.ts';
import { describeEvent } from '../describeEvent.ts';
import type { EventLog } from '../EventLog.ts';
import { httpFailure } from '../httpFailure.ts';
import { isEvent } from '../originateLocalPair.ts';
import type { Scenario } from '../Scenario.ts';

/**
 * Places a call the way per-call connections are traced (reference: outbound-websocket.jsonl): the
 * dialplan hands the ;2 half of `Local/s@stasis-ivr` to demo-app with `Stasis(demo-app)`; the ;1
 * half runs `stasis-ivr,wait` (answers, then waits) and never enters the application. Answers the
 * call and waits until it is up.
 */
async function callIntoApp(s: ContractSession, log: EventLog, aName: string, bName: string) {
  const a = s.id(aName);
  const b = s.id(bName);
  await s.rest.channels.originate({
    endpoint: 'Local/s@stasis-ivr',
    context: 'stasis-ivr',
    extension: 'wait',
    priority: 1,
    callerId: 'Oracle <1000>',
    channelId: a,
    otherChannelId: b,
  });
  const start = await s.nextEvent(log, `StasisStart of ${b}`, isEvent('StasisStart', b));
  expect(start).toMatchObject({ args: [], channel: { id: b, state: 'Ring' } });
  await s.rest.channel(b).answer();
  await s.nextEvent(log, `${b} up`, (e) => describeEvent(e) === `ChannelStateChange ${b} Up`);
  return { a, b };
}

/** The events of `log` about one channel (or its playbacks), as lines. */
function about(log: EventLog, channel: string, playbacks: readonly string[] = []): string[] {
  return log.events
    .filter((e) => isEvent(e.type, channel)(e) || playbacks.some((p) => isEvent(e.type, p)(e)))
    .map(describeEvent);
}

/**
 * A call the dialplan hands to the application, as every deployment with per-call connections
 * has it: the application hears only its call (no subscribeAll), answers it, plays to it, sets and
 * reads a variable, and hangs it up. Runs the same whether the application dialled the server or
 * the server dialled the application, persistent or once per call.
 */
export const callFromDialplanScenario: Scenario = {
  name: 'a call the dialplan hands to the application: answer, play, a variable, hang up; only its own events',
  async run(s) {
    const log = await s.listen('demo-app');
    const { a, b } = await callIntoApp(s, log, 'pa', 'pb');
    const beep = s.id('pb-beep');
    expect(await s.rest.channel(b).play({ media: 'sound:beep', playbackId: beep })).toMatchObject({
      id: beep,
      target_uri: `channel:${b}`,
    });
    await s.nextEvent(log, 'beep finished', isEvent('PlaybackFinished', beep));
    await s.rest.channel(b).setChannelVar({ variable: 'ORACLE_CALL', value: 'dialled' });
    expect(await s.rest.channel(b).getChannelVar({ variable: 'ORACLE_CALL' })).toEqual({ value: 'dialled' });
    // The other half runs the dialplan: it is no application's.
    expect(await httpFailure(s.rest.channel(a).play({ media: 'sound:beep' }))).toEqual({
      status: 409,
      message: 'Channel not in Stasis application',
    });
    await s.rest.channel(b).hangup({ reason: 'normal' });
    await s.nextEvent(log, `${b} destroyed`, isEvent('ChannelDestroyed', b));
    expect(await httpFailure(s.rest.channel(b).get())).toEqual({ status: 404, message: 'Channel not found' });

    // Everything the application heard was about its call.
    expect(about(log, b, [beep])).toEqual(log.events.map(describeEvent));
    expect(about(log, b, [beep])).toEqual([
      `StasisStart ${b} []`,
      `ChannelStateChange ${b} Up`,
      `PlaybackStarted ${beep} playing`,
      `PlaybackFinished ${beep} done`,
      `ChannelVarset ${b} ORACLE_CALL=dialled`,
      `ChannelHangupRequest ${b}`,
      `StasisEnd ${b}`,
      // After StasisEnd the dialplan's Stasis() returns: its status, then the hangup it finds.
      `ChannelVarset ${b} STASISSTATUS=SUCCESS`,
      `ChannelHangupRequest ${b}`,
      `ChannelDestroyed ${b} cause=16`,
    ]);
  },
};

/**
 * Two calls in the application at once, each acted on in turn: each hears its own events, and
 * hanging one up leaves the other as it was. With per-call connections each call has its own
 * socket and its requests travel on it.
 */
export const twoCallsScenario: Scenario = {
  name: 'two calls at once: each hears its own events; hanging one up leaves the other up',
  async run(s) {
    const log = await s.listen('demo-app');
    const first = await callIntoApp(s, log, 'p1a', 'p1b');
    const second = await callIntoApp(s, log, 'p2a', 'p2b');
    const beep1 = s.id('p1-beep');
    const beep2 = s.id('p2-hello');
    await s.rest.channel(first.b).play({ media: 'sound:beep', playbackId: beep1 });
    await s.nextEvent(log, 'first call beep finished', isEvent('PlaybackFinished', beep1));
    await s.rest.channel(second.b).play({ media: 'sound:hello-world', playbackId: beep2 });
    await s.nextEvent(log, 'second call hello-world finished', isEvent('PlaybackFinished', beep2));

    await s.rest.channel(first.b).hangup();
    await s.nextEvent(log, `${first.b} destroyed`, isEvent('ChannelDestroyed', first.b));
    expect(await s.rest.channel(second.b).get()).toMatchObject({ id: second.b, state: 'Up' });
    await s.rest.channel(second.b).ring();
    await s.rest.channel(second.b).ringStop();
    await s.rest.channel(second.b).hangup({ reason: 'busy' });
    await s.nextEvent(log, `${second.b} destroyed`, isEvent('ChannelDestroyed', second.b));

    const lifecycle = (b: string, playback: string, cause: number) => [
      `StasisStart ${b} []`,
      `ChannelStateChange ${b} Up`,
      `PlaybackStarted ${playback} playing`,
      `PlaybackFinished ${playback} done`,
      `ChannelHangupRequest ${b}`,
      `StasisEnd ${b}`,
      `ChannelVarset ${b} STASISSTATUS=SUCCESS`,
      `ChannelHangupRequest ${b}`,
      `ChannelDestroyed ${b} cause=${cause}`,
    ];
    expect(about(log, first.b, [beep1])).toEqual(lifecycle(first.b, beep1, 16));
    expect(about(log, second.b, [beep2])).toEqual(lifecycle(second.b, beep2, 17));
    expect(log.events).toHaveLength(18);
  },
};
