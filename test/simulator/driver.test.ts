import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

function types(h: Harness, conn: string): string[] {
  return (h.events[conn] ?? []).map((e) => String(e.type));
}

function ofType(h: Harness, conn: string, type: string): Record<string, unknown>[] {
  return (h.events[conn] ?? []).filter((e) => e.type === type);
}

describe('the test driver', () => {
  it('places an inbound call through the shipped dialplan into the demo application', async () => {
    const h = createHarness();
    h.connect('app', ['ringflow-demo'], false);
    const id = h.sim.driver.placeCall({ from: '5551234', to: '100' });
    await h.advance(0);
    const start = ofType(h, 'app', 'StasisStart')[0]!;
    expect(start.args).toEqual(['100']);
    expect(start.channel).toMatchObject({ id, state: 'Ring', caller: { number: '5551234' } });
    expect((await h.req('POST', `/channels/${id}/answer`)).status).toBe(204);
    expect((await h.req('POST', `/channels/${id}/continue`)).status).toBe(204);
    await h.advance(0);
    // continue with no location goes to the next priority, Hangup(): the call ends there.
    const tail = types(h, 'app').slice(types(h, 'app').indexOf('StasisEnd'));
    expect(tail).toEqual(['StasisEnd', 'ChannelVarset', 'ChannelDialplan', 'ChannelDestroyed']);
    expect(h.sim.channelCount).toBe(0);
  });

  it('presses digits in virtual time, each reported with its duration when it ends', async () => {
    const h = createHarness();
    h.connect('app', ['ivr'], false);
    const id = h.sim.driver.placeCall({ app: 'ivr' });
    const t0 = h.clock.now();
    h.sim.driver.pressDigits(id, '12#', { durationMs: 80, gapMs: 50 });
    await h.advance(79);
    expect(ofType(h, 'app', 'ChannelDtmfReceived')).toHaveLength(0);
    await h.advance(1000);
    const digits = ofType(h, 'app', 'ChannelDtmfReceived');
    expect(digits.map((e) => [e.digit, e.duration_ms])).toEqual([
      ['1', 80],
      ['2', 80],
      ['#', 80],
    ]);
    expect(digits.map((e) => Date.parse(String(e.timestamp).replace('+0000', 'Z')) - t0)).toEqual([
      80, 210, 340,
    ]);
  });

  it('reports talking only once TALK_DETECT(set) is on, with the talk duration', async () => {
    const h = createHarness();
    h.connect('app', ['talk'], false);
    const id = h.sim.driver.placeCall({ app: 'talk' });
    h.sim.driver.startTalking(id);
    h.sim.driver.stopTalking(id);
    expect(ofType(h, 'app', 'ChannelTalkingStarted')).toHaveLength(0);
    await h.req('POST', `/channels/${id}/variable`, { variable: 'TALK_DETECT(set)', value: '' });
    h.sim.driver.startTalking(id);
    await h.advance(1500);
    h.sim.driver.stopTalking(id);
    expect(ofType(h, 'app', 'ChannelTalkingStarted')).toHaveLength(1);
    expect(ofType(h, 'app', 'ChannelTalkingFinished')[0]).toMatchObject({ duration: 1500 });
  });

  it('raises ChannelHold/ChannelUnhold for an interface hold only with HOLD_INTERCEPT(set), and for a phone hold always', async () => {
    const h = createHarness();
    h.connect('app', ['hold'], false);
    const id = h.sim.driver.placeCall({ app: 'hold' });
    await h.req('POST', `/channels/${id}/hold`);
    expect(ofType(h, 'app', 'ChannelHold')).toHaveLength(0);
    await h.req('POST', `/channels/${id}/variable`, { variable: 'HOLD_INTERCEPT(set)', value: '' });
    await h.req('POST', `/channels/${id}/hold`);
    await h.req('DELETE', `/channels/${id}/hold`);
    expect(types(h, 'app').filter((t) => t.startsWith('ChannelUnhold') || t === 'ChannelHold')).toEqual([
      'ChannelHold',
      'ChannelUnhold',
    ]);
    h.sim.driver.hold(id, 'jazz');
    expect(ofType(h, 'app', 'ChannelHold').at(-1)).toMatchObject({ musicclass: 'jazz' });
  });

  it('delivers inbound texts to apps subscribed to the endpoint or its technology only; outbound texts leave the server', async () => {
    const h = createHarness({ endpoints: ['PJSIP/alice', 'PJSIP/bob'] });
    h.connect('byEndpoint', ['by-endpoint'], false);
    h.connect('byTech', ['by-tech'], false);
    h.connect('other', ['other'], false);
    await h.req('POST', '/applications/by-endpoint/subscription', { eventSource: 'endpoint:PJSIP/alice' });
    await h.req('POST', '/applications/by-tech/subscription', { eventSource: 'endpoint:PJSIP' });
    await h.req('POST', '/applications/other/subscription', { eventSource: 'endpoint:PJSIP/bob' });
    h.sim.driver.sendText({ endpoint: 'PJSIP/alice', to: 'pjsip:ringflow', body: 'hello' });
    expect(ofType(h, 'byEndpoint', 'TextMessageReceived')[0]).toMatchObject({
      message: { from: 'pjsip:alice', to: 'pjsip:ringflow', body: 'hello' },
      endpoint: { technology: 'PJSIP', resource: 'alice' },
    });
    expect(ofType(h, 'byTech', 'TextMessageReceived')).toHaveLength(1);
    expect(ofType(h, 'other', 'TextMessageReceived')).toHaveLength(0);
    const sent = await h.req(
      'PUT',
      '/endpoints/sendMessage',
      { to: 'pjsip:bob', from: 'ringflow', body: 'hi' },
      {
        variables: { nested: { a: 1 }, n: 5 },
      },
    );
    expect(sent.status).toBe(202);
    expect(h.sim.driver.outbound.at(-1)).toMatchObject({
      kind: 'message',
      detail: { endpoint: 'PJSIP/bob', body: 'hi', variables: { nested: { a: 1 }, n: 5 } },
    });
    expect((await h.req('GET', '/endpoints/Local')).body).toEqual({
      message: 'No Endpoints found - invalid tech Local',
    });
  });

  it('follows the subscription hierarchy: an endpoint subscription sees that endpoint’s channels', async () => {
    const h = createHarness({ endpoints: ['PJSIP/alice'] });
    h.connect('watch', ['watch'], false);
    h.connect('ivr', ['ringflow-demo'], false);
    await h.req('POST', '/applications/watch/subscription', { eventSource: 'endpoint:PJSIP/alice' });
    const id = h.sim.driver.placeCall({ endpoint: 'PJSIP/alice', from: '201', to: '100' });
    await h.advance(0);
    expect(ofType(h, 'watch', 'ChannelCreated')[0]).toMatchObject({ channel: { id } });
    // StasisStart is for the application the channel enters, not for watchers.
    expect(ofType(h, 'watch', 'StasisStart')).toHaveLength(0);
    expect(ofType(h, 'ivr', 'StasisStart')).toHaveLength(1);
  });

  it('records with a silence limit: stops after that much silence and reports talking and silence durations', async () => {
    const h = createHarness();
    h.connect('app', ['rec'], false);
    const id = h.sim.driver.placeCall({ app: 'rec' });
    h.sim.driver.startTalking(id);
    const started = await h.req('POST', `/channels/${id}/record`, {
      name: 'msg',
      format: 'wav',
      maxSilenceSeconds: '2',
      maxDurationSeconds: '60',
    });
    expect(started).toMatchObject({
      status: 201,
      body: { name: 'msg', state: 'queued', target_uri: `channel:${id}` },
    });
    await h.advance(3000);
    h.sim.driver.stopTalking(id);
    await h.advance(10_000);
    expect(ofType(h, 'app', 'RecordingFinished')[0]).toMatchObject({
      recording: { name: 'msg', state: 'done', duration: 5, talking_duration: 3, silence_duration: 2 },
    });
    expect((await h.req('GET', '/recordings/stored/msg')).body).toEqual({ name: 'msg', format: 'wav' });
  });

  it('starts a recording with a beep at once (RecordingStarted, state recording); the beep is not recorded', async () => {
    // Reference traces, scenario 06: RecordingStarted 2 ms after a beep=true record request, and
    // the recording can be paused, unpaused and stopped during what is still the beep.
    const h = createHarness();
    h.connect('app', ['rec'], false);
    const id = h.sim.driver.placeCall({ app: 'rec' });
    const t0 = h.clock.now();
    await h.req('POST', `/channels/${id}/record`, {
      name: 'b',
      format: 'wav',
      beep: 'true',
      maxDurationSeconds: '3',
    });
    await h.advance(0);
    expect(ofType(h, 'app', 'RecordingStarted')).toMatchObject([
      { recording: { name: 'b', state: 'recording' } },
    ]);
    expect((await h.req('GET', '/recordings/live/b')).body).toMatchObject({ state: 'recording' });
    // maxDurationSeconds counts from the end of the beep (424 ms): 3.424 s in all.
    await h.advance(3_423);
    expect(ofType(h, 'app', 'RecordingFinished')).toHaveLength(0);
    await h.advance(1);
    expect(ofType(h, 'app', 'RecordingFinished')).toMatchObject([{ recording: { name: 'b', duration: 3 } }]);
    expect(h.clock.now() - t0).toBe(3_424);

    // Paused during the beep, then stopped: finished (and stored) with nothing recorded.
    await h.req('POST', `/channels/${id}/record`, { name: 'p', format: 'wav', beep: 'true' });
    expect((await h.req('POST', '/recordings/live/p/pause')).status).toBe(204);
    expect((await h.req('GET', '/recordings/live/p')).body).toMatchObject({ state: 'paused' });
    await h.advance(1_000);
    expect((await h.req('POST', '/recordings/live/p/stop')).status).toBe(204);
    expect(ofType(h, 'app', 'RecordingFinished')[1]).toMatchObject({ recording: { name: 'p', duration: 0 } });
    expect((await h.req('GET', '/recordings/stored/p')).status).toBe(200);
  });

  it("moves a channel to another application with appArgs cut at every comma, empty ones dropped (the server's strtok_r)", async () => {
    const h = createHarness();
    h.connect('from', ['from'], false);
    h.connect('to', ['to'], false);
    const id = h.sim.driver.placeCall({ app: 'from' });
    await h.advance(0);
    const moved = await h.req('POST', `/channels/${id}/move`, { app: 'to', appArgs: ',a,,"b,c",' });
    expect(moved.status).toBe(204);
    expect(ofType(h, 'from', 'StasisEnd')).toHaveLength(1);
    expect(ofType(h, 'to', 'StasisStart')[0]).toMatchObject({ args: ['a', '"b', 'c"'] });
    // Moved back with an empty appArgs: no arguments at all (not one empty argument).
    await h.req('POST', `/channels/${id}/move`, { app: 'from', appArgs: '' });
    expect(ofType(h, 'from', 'StasisStart').at(-1)).toMatchObject({ args: [] });
  });

  it('plays a tone until it is stopped; skipping is accepted and ignored', async () => {
    const h = createHarness();
    h.connect('app', ['tone'], false);
    const id = h.sim.driver.placeCall({ app: 'tone' });
    await h.req('POST', `/channels/${id}/play/t1`, { media: 'tone:ring;tonezone=fr' });
    await h.advance(600_000);
    expect((await h.req('POST', '/playbacks/t1/control', { operation: 'forward' })).status).toBe(204);
    expect((await h.req('GET', '/playbacks/t1')).body).toMatchObject({ state: 'playing' });
    await h.req('DELETE', '/playbacks/t1');
    expect(ofType(h, 'app', 'PlaybackFinished')[0]).toMatchObject({ playback: { id: 't1', state: 'done' } });
  });

  it('blind-transfers a bridged call: a Local pair replaces the transferer (StasisStart with replace_channel)', async () => {
    const h = createHarness();
    h.connect('app', ['conf'], false);
    const a = h.sim.driver.placeCall({ app: 'conf', from: '201' });
    const b = h.sim.driver.placeCall({ app: 'conf', from: '202' });
    await h.req('POST', '/bridges/br', { type: 'mixing' });
    await h.req('POST', '/bridges/br/addChannel', { channel: `${a},${b}` });
    const local = h.sim.driver.blindTransfer(a, '101', 'default');
    await h.advance(0);
    const transfer = ofType(h, 'app', 'BridgeBlindTransfer')[0]!;
    expect(transfer).toMatchObject({
      exten: '101',
      context: 'default',
      result: 'Success',
      channel: { id: a },
      transferee: { id: b },
    });
    const start = ofType(h, 'app', 'StasisStart').find((e) => (e.channel as { id: string }).id === local)!;
    expect(start.replace_channel).toMatchObject({ id: a });
    expect(((await h.req('GET', '/bridges/br')).body as { channels: string[] }).channels.sort()).toEqual(
      [b, local].sort(),
    );
    expect((await h.req('GET', `/channels/${a}`)).status).toBe(404);
  });

  it("attended transfer links the two application bridges with a Local pair in the legs' places and hangs both transferer legs up", async () => {
    const h = createHarness();
    h.connect('app', ['conf'], false);
    const [caller, agent1, agent2, expert] = ['301', '302', '303', '304'].map((from) =>
      h.sim.driver.placeCall({ app: 'conf', from }),
    ) as [string, string, string, string];
    await h.req('POST', '/bridges/first');
    await h.req('POST', '/bridges/second');
    await h.req('POST', '/bridges/first/addChannel', { channel: `${caller},${agent1}` });
    await h.req('POST', '/bridges/second/addChannel', { channel: `${agent2},${expert}` });
    const { firstLink, secondLink } = h.sim.driver.attendedTransfer(agent1, agent2);
    await h.advance(0);
    // The real server's ARI bridges forbid merges and swaps: the transfer links them (main/bridge.c).
    expect(ofType(h, 'app', 'BridgeAttendedTransfer')[0]).toMatchObject({
      transferer_first_leg: { id: agent1 },
      transferer_second_leg: { id: agent2 },
      transferee: { id: caller },
      transfer_target: { id: expert },
      destination_type: 'link',
      destination_link_first_leg: { id: firstLink },
      destination_link_second_leg: { id: secondLink },
    });
    const starts = ofType(h, 'app', 'StasisStart');
    expect(starts.find((e) => (e.channel as { id: string }).id === firstLink)?.replace_channel).toMatchObject(
      {
        id: agent1,
      },
    );
    expect(
      starts.find((e) => (e.channel as { id: string }).id === secondLink)?.replace_channel,
    ).toMatchObject({
      id: agent2,
    });
    expect(((await h.req('GET', '/bridges/first')).body as { channels: string[] }).channels.sort()).toEqual(
      [caller, firstLink].sort(),
    );
    expect(((await h.req('GET', '/bridges/second')).body as { channels: string[] }).channels.sort()).toEqual(
      [expert, secondLink].sort(),
    );
    expect((await h.req('GET', `/channels/${agent1}`)).status).toBe(404);
    expect((await h.req('GET', `/channels/${agent2}`)).status).toBe(404);
  });

  it('rings an outbound call until the far end answers; a forward carries the subscription to the new channel', async () => {
    const h = createHarness({ endpoints: ['PJSIP/bob'] });
    h.connect('app', ['out'], false);
    const orig = await h.req('POST', '/channels', { endpoint: 'PJSIP/bob', app: 'out', channelId: 'call-1' });
    expect(orig.body).toMatchObject({ id: 'call-1', state: 'Down' });
    await h.advance(0);
    expect((await h.req('GET', '/channels/call-1')).body).toMatchObject({ state: 'Ringing' });
    const next = h.sim.driver.forwardCall('call-1', 'PJSIP/carol');
    const forward = ofType(h, 'app', 'Dial').find((e) => e.forward === 'PJSIP/carol')!;
    expect(forward.forwarded).toMatchObject({ id: next });
    h.sim.driver.answer(next);
    await h.advance(0);
    expect(ofType(h, 'app', 'StasisStart')[0]).toMatchObject({ channel: { id: next, state: 'Up' } });
    expect((await h.req('GET', '/channels/call-1')).status).toBe(404);
  });

  it('fails a recording queued behind a playback when the caller hangs up before it starts', async () => {
    const h = createHarness();
    h.connect('app', ['rec'], false);
    const id = h.sim.driver.placeCall({ app: 'rec' });
    await h.req('POST', `/channels/${id}/play`, { media: 'sound:hello-world' });
    const queued = await h.req('POST', `/channels/${id}/record`, { name: 'late', format: 'wav' });
    expect(queued.body).toMatchObject({ state: 'queued' });
    h.sim.driver.hangup(id);
    expect(ofType(h, 'app', 'RecordingFailed')[0]).toMatchObject({
      recording: { name: 'late', state: 'failed', cause: 'Channel hung up' },
    });
    expect(ofType(h, 'app', 'RecordingStarted')).toHaveLength(0);
  });

  it('waits for events on the simulated clock, rejecting after the timeout', async () => {
    const h = createHarness();
    const waiting = h.sim.driver.waitForEvent('StasisStart', { timeoutMs: 5000 });
    const failed = expect(waiting).rejects.toThrow(/within 5000 ms/);
    await h.advance(5000);
    await failed;
    h.connect('app', ['w'], false);
    const next = h.sim.driver.waitForEvent((e) => e.type === 'StasisStart');
    const id = h.sim.driver.placeCall({ app: 'w' });
    expect(await next).toMatchObject({ type: 'StasisStart', channel: { id } });
  });
});
