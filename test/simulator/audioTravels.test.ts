import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/**
 * Audio is not simulated, but where it would flow it has its effects: media played to one half
 * of a Local pair is sound coming out of the other half, and a bridge carries what its members
 * say to the others. Tests of real servers make a caller "speak" exactly so: they play a prompt
 * into the call.
 */
const DIALPLAN = `
[speak]
exten => s,1,Answer()
 same => n,Stasis(ivr)
 same => n,Hangup()
`;

/** A Local pair: `;1` in the application `caller` (the test's side), `;2` in `ivr` (the flow's). */
async function localPair(h: Harness, name: string): Promise<{ caller: string; ivr: string }> {
  await h.req('POST', '/channels', {
    endpoint: 'Local/s@speak',
    app: 'caller',
    channelId: `${name}-1`,
    otherChannelId: `${name}-2`,
  });
  await h.advance(0);
  return { caller: `${name}-1`, ivr: `${name}-2` };
}

function harness(): Harness {
  const h = createHarness({ dialplan: { text: DIALPLAN } });
  h.connect('ivr', ['ivr'], false);
  h.connect('caller', ['caller'], false);
  return h;
}

/** `Type@ms` of the talk events about a channel, milliseconds from `t0`. */
function talk(h: Harness, connection: string, channelId: string, t0: number): string[] {
  return (h.events[connection] ?? [])
    .filter(
      (e) => String(e.type).startsWith('ChannelTalking') && (e.channel as { id: string }).id === channelId,
    )
    .map((e) => {
      const at = Date.parse(String(e.timestamp)) - t0;
      return e.type === 'ChannelTalkingFinished'
        ? `Finished@${at} (${String(e.duration)} ms)`
        : `Started@${at}`;
    });
}

function recordingFinished(h: Harness, connection: string) {
  const event = (h.events[connection] ?? []).find((e) => e.type === 'RecordingFinished');
  return event?.recording as
    | { duration: number; talking_duration?: number; silence_duration?: number }
    | undefined;
}

const detectTalk = (h: Harness, id: string) =>
  h.req('POST', `/channels/${id}/variable`, { variable: 'TALK_DETECT(set)', value: '' });

describe('audio travels', () => {
  it('a prompt played to one half of a Local pair is talking on the other: talk detection and the recording hear it', async () => {
    const h = harness();
    const pair = await localPair(h, 'a');
    await detectTalk(h, pair.ivr);
    const record = await h.req('POST', `/channels/${pair.ivr}/record`, {
      name: 'msg',
      format: 'wav',
      maxSilenceSeconds: '2',
    });
    expect(record.status).toBe(201);
    const t0 = h.clock.now();
    await h.advance(1000); // a second of silence first
    // hello-world lasts 1.4 s: more than the silence limit is never reached while it plays.
    await h.req('POST', `/channels/${pair.caller}/play/p1`, { media: 'sound:hello-world,sound:hello-world' });
    await h.advance(2000);
    expect(h.sim.liveRecordings).toEqual(['msg']);
    expect(talk(h, 'ivr', pair.ivr, t0)).toEqual(['Started@1000']);
    await h.advance(800); // the prompt ends at 3800 ms
    expect(talk(h, 'ivr', pair.ivr, t0)).toEqual(['Started@1000', 'Finished@3800 (2800 ms)']);
    await h.advance(2000); // 2 s of silence after it end the recording
    expect(h.sim.liveRecordings).toEqual([]);
    expect(recordingFinished(h, 'ivr')).toMatchObject({
      duration: 5,
      talking_duration: 2,
      silence_duration: 3,
    });
    // The half it was played to hears it; it does not talk.
    expect(talk(h, 'caller', pair.caller, t0)).toEqual([]);
  });

  it('without anything played into the call the same recording is silence and ends at its limit', async () => {
    const h = harness();
    const pair = await localPair(h, 'a');
    await h.req('POST', `/channels/${pair.ivr}/record`, {
      name: 'quiet',
      format: 'wav',
      maxSilenceSeconds: '2',
    });
    await h.advance(2000);
    expect(recordingFinished(h, 'ivr')).toMatchObject({
      duration: 2,
      talking_duration: 0,
      silence_duration: 2,
    });
  });

  it('a bridge carries it on: played into one call, it is heard through the bridge on the other (talk detection, bridge recording)', async () => {
    const h = harness();
    const agent = await localPair(h, 'agent');
    const customer = await localPair(h, 'customer');
    await h.req('POST', '/bridges', { bridgeId: 'room', type: 'mixing' });
    await h.req('POST', '/bridges/room/addChannel', { channel: `${agent.ivr},${customer.ivr}` });
    await detectTalk(h, customer.caller);
    await detectTalk(h, agent.ivr);
    await h.req('POST', '/bridges/room/record', { name: 'room-rec', format: 'wav', maxSilenceSeconds: '3' });
    const t0 = h.clock.now();
    // The agent's side speaks: a prompt played to the test's half of the agent's pair.
    await h.req('POST', `/channels/${agent.caller}/play/p1`, { media: 'sound:hello-world' });
    await h.advance(1400);
    // In the bridge the agent's half talks; the customer's half hears it, so the customer's
    // other half (the test's) has it coming out.
    expect(talk(h, 'ivr', agent.ivr, t0)).toEqual(['Started@0', 'Finished@1400 (1400 ms)']);
    expect(talk(h, 'caller', customer.caller, t0)).toEqual(['Started@0', 'Finished@1400 (1400 ms)']);
    await h.advance(3000);
    expect(recordingFinished(h, 'ivr')).toMatchObject({ talking_duration: 1, silence_duration: 3 });
  });

  it('media played to a bridge is talking for a bridge recording and is heard by every member', async () => {
    const h = harness();
    const pair = await localPair(h, 'a');
    await h.req('POST', '/bridges', { bridgeId: 'room', type: 'mixing' });
    await h.req('POST', '/bridges/room/addChannel', { channel: pair.ivr });
    await detectTalk(h, pair.caller);
    await h.req('POST', '/bridges/room/record', { name: 'room-rec', format: 'wav', maxSilenceSeconds: '1' });
    const t0 = h.clock.now();
    await h.req('POST', '/bridges/room/play/p1', { media: 'sound:hello-world' });
    await h.advance(1400);
    expect(talk(h, 'caller', pair.caller, t0)).toEqual(['Started@0', 'Finished@1400 (1400 ms)']);
    // The 1 s silence limit did not end the recording while the prompt played; it ends 1 s after.
    expect(h.sim.liveRecordings).toEqual(['room-rec']);
    await h.advance(1000);
    expect(recordingFinished(h, 'ivr')).toMatchObject({
      duration: 2,
      talking_duration: 1,
      silence_duration: 1,
    });
  });

  it('does not travel where a real server would not carry it: a holding bridge, a muted direction, the channel played to', async () => {
    const h = harness();
    const a = await localPair(h, 'a');
    const b = await localPair(h, 'b');
    await h.req('POST', '/bridges', { bridgeId: 'hold', type: 'holding' });
    await h.req('POST', '/bridges/hold/addChannel', { channel: `${a.ivr},${b.ivr}` });
    await detectTalk(h, b.caller);
    await detectTalk(h, a.caller);
    const t0 = h.clock.now();
    await h.req('POST', `/channels/${a.caller}/play/p1`, { media: 'sound:hello-world' });
    await h.advance(1400);
    expect(talk(h, 'caller', b.caller, t0)).toEqual([]);
    expect(talk(h, 'caller', a.caller, t0)).toEqual([]);
    // Muted towards the channel, a prompt played to it reaches nobody.
    await h.req('POST', `/channels/${a.caller}/mute`, { direction: 'out' });
    await detectTalk(h, a.ivr);
    await h.req('POST', `/channels/${a.caller}/play/p2`, { media: 'sound:hello-world' });
    await h.advance(1400);
    expect(talk(h, 'ivr', a.ivr, t0)).toEqual([]);
  });

  it('the driver talking and a prompt overlapping count as one stretch of talking', async () => {
    const h = harness();
    const pair = await localPair(h, 'a');
    await detectTalk(h, pair.ivr);
    const t0 = h.clock.now();
    h.sim.driver.startTalking(pair.ivr);
    await h.req('POST', `/channels/${pair.caller}/play/p1`, { media: 'sound:hello-world' });
    await h.advance(500);
    h.sim.driver.stopTalking(pair.ivr);
    await h.advance(900);
    expect(talk(h, 'ivr', pair.ivr, t0)).toEqual(['Started@0', 'Finished@1400 (1400 ms)']);
  });
});
