import { describe, expect, it } from 'vitest';
import { parseFlow } from '../parseFlow.ts';

function problems(step: string) {
  const text = `name: t\nstart: a\nstates:\n  a:\n    steps:\n      - answer\n      - transfer:\n${step}      - hangup\n`;
  return parseFlow(text, 'transfer.yaml').diagnostics.map(
    (d) => `${d.line}:${d.column} ${d.code} ${d.message}`,
  );
}

describe('transfer step validation', () => {
  it('accepts a blind transfer to an endpoint, to the dialplan, and an attended one', () => {
    expect(problems('          endpoint: PJSIP/sales\n')).toEqual([]);
    expect(problems('          context: support\n          extension: "200"\n')).toEqual([]);
    expect(
      problems(
        '          endpoint: PJSIP/op\n          attended: true\n          confirm: { key: "5", timeout: 5s }\n',
      ),
    ).toEqual([]);
  });

  it('no target at all: at the step', () => {
    expect(problems('          attended: false\n')).toEqual([
      expect.stringMatching(/^8:11 RF103 A transfer needs a target/),
    ]);
  });

  it('an endpoint and a dialplan place: at the dialplan field', () => {
    expect(problems('          endpoint: PJSIP/sales\n          context: support\n')).toEqual([
      expect.stringMatching(/^9:11 RF104 A transfer goes to one place/),
    ]);
  });

  it('attended without an endpoint, or with a dialplan place', () => {
    expect(problems('          attended: true\n          context: support\n')).toEqual([
      expect.stringMatching(/RF103 An attended transfer calls the target first/),
      expect.stringMatching(/^9:11 RF104 An attended transfer calls an endpoint; "context"/),
    ]);
  });

  it('attended options on a blind transfer, and a confirm key that is not one key', () => {
    expect(problems('          endpoint: PJSIP/sales\n          announce: { media: sound:beep }\n')).toEqual([
      expect.stringMatching(/^9:11 RF104 "announce" applies to an attended transfer only/),
    ]);
    expect(
      problems('          endpoint: PJSIP/op\n          attended: true\n          confirm: { key: "12" }\n'),
    ).toEqual([expect.stringMatching(/^10:27 RF104 .*one key/)]);
  });

  it('stepOut is for an attended transfer: a blind one ends the flow anyway', () => {
    expect(
      problems('          endpoint: PJSIP/op\n          attended: true\n          stepOut: true\n'),
    ).toEqual([]);
    expect(problems('          endpoint: PJSIP/sales\n          stepOut: true\n')).toEqual([
      expect.stringMatching(/^9:11 RF104 "stepOut" applies to an attended transfer only/),
    ]);
  });
});
