import { describe, expect, it } from 'vitest';
import { parseFarEndConfig } from '@ringflow/simulator';
import { createHarness, type Harness } from './harness.ts';

/** Originates to `endpoint` into the application `far` and returns the reply. */
function dial(h: Harness, endpoint: string, channelId: string, timeout = '30') {
  return h.req('POST', '/channels', { endpoint, app: 'far', channelId, timeout });
}

/** `Type dialstatus|cause` of the events about one channel, for readable sequences. */
function story(h: Harness, channelId: string): string[] {
  return (h.events.far ?? [])
    .filter(
      (e) =>
        (e.channel as { id?: string } | undefined)?.id === channelId ||
        (e.peer as { id?: string } | undefined)?.id === channelId,
    )
    .map((e) => {
      if (e.type === 'Dial') return `Dial ${String(e.dialstatus)}`;
      if (e.type === 'ChannelDestroyed') return `ChannelDestroyed ${String(e.cause)}`;
      if (e.type === 'ChannelStateChange') return `State ${(e.channel as { state: string }).state}`;
      return String(e.type);
    })
    .filter((line) => !line.startsWith('ChannelVarset') && !line.startsWith('ChannelDialplan'));
}

describe('endpoints that do not exist', () => {
  it('fail on originate as on a real server: 500 {"error":"Allocation failed"}, no channel left', async () => {
    const h = createHarness({ endpoints: ['PJSIP/alice'] });
    h.connect('far', ['far'], false);
    for (const endpoint of ['PJSIP/operator', 'SIP/alice', 'Bogus/thing']) {
      const reply = await dial(h, endpoint, `x-${endpoint.replace('/', '-')}`);
      expect([endpoint, reply.status, reply.body]).toEqual([endpoint, 500, { error: 'Allocation failed' }]);
    }
    const created = await h.req('POST', '/channels/create', { endpoint: 'PJSIP/operator', app: 'far' });
    expect([created.status, created.body]).toEqual([500, { error: 'Allocation failed' }]);
    expect(h.sim.channelCount).toBe(0);
    expect(h.events.far).toEqual([]);
    // A configured one is dialled; the technology is matched in any case, as the real server does.
    expect((await dial(h, 'pjsip/alice', 'ok')).status).toBe(200);
  });

  it("with unknownEndpoints: 'ring', a phone endpoint never configured is made as it is dialled and rings until answered", async () => {
    const h = createHarness({ unknownEndpoints: 'ring', answerOutboundAfterMs: null });
    h.connect('far', ['far'], false);
    const reply = await dial(h, 'PJSIP/agent-42', 'agent', '120');
    expect(reply.status).toBe(200);
    expect((reply.body as { name: string }).name).toMatch(/^PJSIP\/agent-42-/);
    await h.advance(60_000);
    expect(story(h, 'agent')).not.toContain('State Up');
    h.sim.driver.answer('agent');
    await h.advance(0);
    expect(story(h, 'agent')).toContain('State Up');
    // Not a technology of phones: it fails as before.
    expect((await dial(h, 'Bogus/thing', 'bogus')).status).toBe(500);
  });

  it('an endpoint that called in exists from then on and can be dialled back', async () => {
    const h = createHarness();
    h.connect('far', ['far'], false);
    expect((await dial(h, 'PJSIP/201', 'before')).status).toBe(500);
    h.sim.driver.placeCall({ endpoint: 'PJSIP/201', from: '201', to: '100' });
    expect((await dial(h, 'PJSIP/201', 'after')).status).toBe(200);
  });

  it('addresses of UnicastRTP need no configuration (external media)', async () => {
    const h = createHarness();
    h.connect('far', ['far'], false);
    const media = await h.req('POST', '/channels/externalMedia', {
      app: 'far',
      external_host: '127.0.0.1:4000',
      format: 'ulaw',
    });
    expect(media.status).toBe(200);
  });
});

describe('far-end behaviour is configuration', () => {
  it('answers after its delay, refuses busy/rejected/unreachable with their causes, or rings until the timeout', async () => {
    const h = createHarness({
      answerOutboundAfterMs: 1000,
      endpoints: {
        'PJSIP/quick': 'answer',
        'PJSIP/slow': { answerAfterMs: 5000 },
        'PJSIP/busy': 'busy',
        'PJSIP/rejects': 'reject',
        'PJSIP/down': 'unreachable',
        'PJSIP/away': 'noAnswer',
      },
    });
    h.connect('far', ['far'], false);
    for (const name of ['quick', 'slow', 'busy', 'rejects', 'down']) await dial(h, `PJSIP/${name}`, name);
    await dial(h, 'PJSIP/away', 'away', '10');
    await h.advance(1000);
    expect(story(h, 'quick').slice(-3)).toEqual(['State Up', 'Dial ANSWER', 'StasisStart']);
    expect(story(h, 'slow')).not.toContain('Dial ANSWER');
    for (const [id, cause] of [
      ['busy', 17],
      ['rejects', 21],
      ['down', 27],
    ] as const) {
      expect(story(h, id)).toContain('Dial RINGING');
      expect(story(h, id)).toContain(`ChannelDestroyed ${cause}`);
    }
    await h.advance(4000);
    expect(story(h, 'slow')).toContain('Dial ANSWER');
    expect(story(h, 'away')).not.toContain('ChannelDestroyed 16');
    await h.advance(5000);
    expect(story(h, 'away')).toContain('Dial NOANSWER');
    expect(story(h, 'away')).not.toContain('Dial ANSWER');
  });

  it('a list gives one behaviour per successive call, the last one repeating', async () => {
    const h = createHarness({
      answerOutboundAfterMs: 1000,
      endpoints: { 'PJSIP/customer': ['busy', 'answer'] },
    });
    h.connect('far', ['far'], false);
    for (const id of ['first', 'second', 'third']) {
      await dial(h, 'PJSIP/customer', id);
      await h.advance(2000);
    }
    expect(story(h, 'first')).toContain('ChannelDestroyed 17');
    expect(story(h, 'second')).toContain('Dial ANSWER');
    expect(story(h, 'third')).toContain('Dial ANSWER');
  });

  it('is written as text on command lines and in scenario files', () => {
    expect(parseFarEndConfig('busy')).toBe('busy');
    expect(parseFarEndConfig('answer:2.5')).toEqual({ answerAfterMs: 2500 });
    expect(parseFarEndConfig('busy,noAnswer,answer')).toEqual(['busy', 'noAnswer', 'answer']);
    expect(() => parseFarEndConfig('maybe')).toThrow(/'maybe' is not a far-end behaviour: expected answer/);
  });

  it('refuses a wrong configuration when the simulator is created', () => {
    expect(() => createHarness({ endpoints: { operator: 'busy' } })).toThrow(
      /must be written tech\/resource/,
    );
    expect(() => createHarness({ endpoints: { 'PJSIP/x': 'sometimes' as never } })).toThrow(
      /endpoints\['PJSIP\/x'\]: "sometimes" is not a far-end behaviour/,
    );
  });
});
