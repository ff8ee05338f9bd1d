import { describe, expect, it } from 'vitest';
import { parseFarEndConfig } from '@ringflow/simulator';
import { createHarness, type Harness } from './harness.ts';

/** The dialplan recipe of docs/transfers.md: AMD(), then back to the application with its verdict. */
const DIALPLAN = `
[amd]
exten => s,1,AMD()
 same => n,Stasis(far,amd,\${AMDSTATUS},\${AMDCAUSE})
 same => n,Hangup()

[amd-short]
exten => s,1,AMD(2500,1500,800,1000)
 same => n,Stasis(far,amd,\${AMDSTATUS},\${AMDCAUSE})
`;

/** Originates to `endpoint` into the dialplan at `context`, s, 1; resolves with AMD()'s verdict (the StasisStart args). */
async function detect(h: Harness, endpoint: string, context = 'amd'): Promise<{ args: unknown; at: number }> {
  const started = h.clock.now();
  const reply = await h.req('POST', '/channels', {
    endpoint,
    context,
    extension: 's',
    priority: '1',
    channelId: 'leg',
  });
  expect(reply.status).toBe(200);
  await h.advance(10_000);
  const entered = (h.events.far ?? []).find((e) => e.type === 'StasisStart');
  expect(entered).toBeDefined();
  return { args: entered?.args, at: Date.parse(String(entered?.timestamp)) - started };
}

describe("AMD() in the simulator's dialplan, with far ends that talk", () => {
  it('a person who says hello for a second: HUMAN after 800 ms of silence that follows', async () => {
    const h = createHarness({
      answerOutboundAfterMs: 1000,
      dialplan: { text: DIALPLAN },
      endpoints: { 'PJSIP/alice': { human: { saysMs: 1000 } } },
    });
    h.connect('far', ['far'], false);
    const { args } = await detect(h, 'PJSIP/alice');
    expect(args).toEqual(['amd', 'HUMAN', 'HUMAN-800-800']);
  });

  it('an answering machine with a 4 s greeting: MACHINE once 1.5 s of greeting were heard', async () => {
    const h = createHarness({
      answerOutboundAfterMs: 1000,
      dialplan: { text: DIALPLAN },
      endpoints: { 'PJSIP/bob': { machine: { greetingMs: 4000, beep: true } } },
    });
    h.connect('far', ['far'], false);
    const { args } = await detect(h, 'PJSIP/bob');
    expect(args).toEqual(['amd', 'MACHINE', 'LONGGREETING-1500-1500']);
  });

  it('a phone that answers and says nothing: MACHINE (initial silence); a short analysis time: NOTSURE', async () => {
    const h = createHarness({
      answerOutboundAfterMs: 1000,
      dialplan: { text: DIALPLAN },
      endpoints: { 'PJSIP/carol': 'answer' },
    });
    h.connect('far', ['far'], false);
    expect((await detect(h, 'PJSIP/carol')).args).toEqual(['amd', 'MACHINE', 'INITIALSILENCE-2500-2500']);
    const h2 = createHarness({
      answerOutboundAfterMs: 1000,
      dialplan: { text: DIALPLAN },
      endpoints: { 'PJSIP/carol': 'answer' },
    });
    h2.connect('far', ['far'], false);
    expect((await detect(h2, 'PJSIP/carol', 'amd-short')).args).toEqual(['amd', 'NOTSURE', 'TOOLONG-1000']);
  });

  it('far-end voices written as text (command line, scenario files)', () => {
    expect(parseFarEndConfig('machine:4:beep')).toEqual({ machine: { greetingMs: 4000, beep: true } });
    expect(parseFarEndConfig('busy,human:1.5')).toEqual(['busy', { human: { saysMs: 1500 } }]);
    expect(() => parseFarEndConfig('machine:x')).toThrow(/machine:<greeting seconds>\[:beep\]/);
  });

  it('a wrong far-end voice given as a value says what is wrong', () => {
    expect(() =>
      createHarness({ endpoints: { 'PJSIP/x': { machine: { greetingMs: -1 } } as never } }),
    ).toThrow(/machine needs greetingMs/);
  });
});
