import { describe, expect, it } from 'vitest';
import { parseFlow } from '../parseFlow.ts';
import { formatDiagnostic } from './Diagnostic.ts';

function lines(text: string): string[] {
  return parseFlow(text, 't.yaml').diagnostics.map(formatDiagnostic);
}

const flow = (states: string) => `name: t
inputs: { maxAttempts: { type: number, default: 3 }, room: { type: string } }
vars: { tries: 0, label: "" }
prompts: { en: { p: sound:x } }
start: a
states:
${states}  b: { steps: [hangup] }
`;

describe('expression types', () => {
  it('knows the fields of call and suggests the one meant', () => {
    expect(
      lines(
        flow(
          `  a:\n    steps:\n      - dial: { endpoint: { expr: "'PJSIP/' + call.extention" } }\n    next: b\n`,
        ),
      ),
    ).toEqual([
      't.yaml:9:47 error RF304 unknown-property: In expression "\'PJSIP/\' + call.extention": "call.extention": call has no field "extention". Did you mean "extension"?',
    ]);
    expect(
      lines(
        flow(
          `  a:\n    choose:\n      - { when: "call.caller.nmber == '1'", goto: b }\n      - { goto: b }\n`,
        ),
      ),
    ).toEqual([
      't.yaml:9:30 error RF304 unknown-property: In expression "call.caller.nmber == \'1\'": "call.caller.nmber": call.caller has no field "nmber". Did you mean "number"?',
    ]);
  });

  it('checks operand types against declared vars and inputs, and what a field takes', () => {
    const found = lines(
      flow(`  a:
    steps:
      - play: { media: { expr: "vars.tries + 1" } }
      - set: { label: { expr: "input.room + 1" } }
    choose:
      - { when: "vars.tries > 'a'", goto: b }
      - { when: "vars.tries < input.maxAttempts", goto: b }
      - { goto: b }
`),
    );
    expect(found).toEqual([
      't.yaml:9:33 error RF301 expression-type: In expression "vars.tries + 1": this field takes text or a list, but this expression gives int',
      't.yaml:10:32 error RF301 expression-type: In expression "input.room + 1": the types do not fit (no such overload: string + int)',
      't.yaml:12:18 error RF301 expression-type: In expression "vars.tries > \'a\'": the types do not fit (no such overload: int > string)',
    ]);
  });

  it('knows event where the event is known: a step outcome, a menu choice, an on handler', () => {
    const found = lines(
      flow(`  a:
    steps:
      - menu:
          prompt: p
          choices: { "1": { goto: b, if: "event.digt == '1'" } }
          on: { exhausted: { goto: b, if: "event.attempts > 'a'" } }
      - record: { on: { recorded: { goto: b, if: "event.duration > 2 && event.nme != ''" } } }
    on:
      dtmf: { goto: b, if: "event.digti == '1'" }
      error: { goto: b, set: { label: { expr: "event.message" } } }
    next: b
`),
    );
    expect(found).toEqual([
      expect.stringContaining(
        't.yaml:11:43 error RF304 unknown-property: In expression "event.digt == \'1\'": "event.digt": the menu step\'s "choice" result has no field "digt". Did you mean "digit"?',
      ),
      expect.stringContaining(
        't.yaml:12:44 error RF301 expression-type: In expression "event.attempts > \'a\'": the types do not fit (no such overload: int > string)',
      ),
      expect.stringContaining(
        't.yaml:13:73 error RF304 unknown-property: In expression "event.duration > 2 && event.nme != \'\'": "event.nme": the record step\'s "recorded" result has no field "nme". Did you mean "name"?',
      ),
      expect.stringContaining(
        't.yaml:15:29 warning RF304 unknown-property: In expression "event.digti == \'1\'": "event.digti": the ChannelDtmfReceived event has no field "digti" (not in the interface description; a newer server may send it). Did you mean "digit"?',
      ),
    ]);
  });

  it('types what as stores (the step result), warns where event cannot be known, lets dyn pass', () => {
    expect(
      lines(
        flow(`  a:
    steps:
      - gather: { as: pin }
      - http: { url: http://crm/x, as: crm }
    choose:
      - { when: "event.digit == '1'", goto: b }
      - { when: "vars.pin.digits == '12' && vars.crm.body.anything > 3", goto: b }
      - { when: "vars.pin.digts == '12'", goto: b }
      - { goto: b }
`),
      ),
    ).toEqual([
      expect.stringMatching(
        /^t\.yaml:12:18 warning RF305 unknowable-event: .*"event" here is whatever the flow handled last/,
      ),
      't.yaml:14:27 error RF304 unknown-property: In expression "vars.pin.digts == \'12\'": "vars.pin.digts": the gather step\'s result has no field "digts". Did you mean "digits"?',
    ]);
  });
});

describe('variables read by expressions', () => {
  it('refuses reading a variable that nothing declares or assigns, and names the one meant', () => {
    const text = flow(`  a:
    steps:
      - set: { tries: { expr: "vars.tries + 1" } }
    choose:
      - { when: "vars.tires < 3", goto: a }
      - { goto: b }
`);
    const result = parseFlow(text, 't.yaml');
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      't.yaml:11:18 error RF303 unknown-variable: "vars.tires" is never declared or assigned (it would always be missing at run time). Did you mean "tries"? If not, declare it (vars: { tires: <initial value> }) or assign it (a set, or as: tires on a step).',
    ]);
    // Without a close name: how to declare it.
    expect(
      lines(flow(`  a:\n    steps:\n      - play: { media: { expr: "vars.greeting" } }\n    next: b\n`)),
    ).toEqual([
      't.yaml:9:33 error RF303 unknown-variable: "vars.greeting" is never declared or assigned (it would always be missing at run time). Declare it (vars: { greeting: <initial value> }) or assign it (a set, or as: greeting on a step).',
    ]);
  });

  it('knows every way a variable gets a value: vars, set steps and transitions, as on any step', () => {
    const text = `name: t
vars: { declared: 0 }
prompts: { en: { p: sound:x } }
queues: { support: { agents: [PJSIP/201] } }
start: a
on:
  hangup: { set: { fromFlowHandler: 1 } }
states:
  a:
    steps:
      - set: { fromSetStep: 1 }
      - gather: { prompt: p, as: fromGather, on: { noInput: { set: { fromStepOn: 1 } } } }
      - menu: { prompt: p, choices: { "1": { goto: b, set: { fromChoice: 1 } } }, as: fromMenu }
      - http: { url: "http://crm/x", as: fromHttp }
      - subflow: { flow: pin, as: fromSubflow }
      - queue: { name: support, as: fromQueue }
      - dial: { endpoint: PJSIP/1, as: fromDial }
      - record: { as: fromRecord }
      - getChannelVar: { name: X, as: fromChannelVar }
    on:
      dtmf: { set: { fromStateOn: 1 } }
    after:
      5s: { goto: b, set: { fromAfter: 1 } }
    choose:
      - { when: "vars.declared == 0", goto: b, set: { fromChoose: 1 } }
      - goto: b
  b:
    steps:
      - userEvent:
          name: All
          variables:
            a: { expr: "string(vars.declared) + string(vars.fromSetStep) + string(vars.fromStepOn)" }
            b: { expr: "string(vars.fromChoice) + string(vars.fromFlowHandler) + vars.fromGather.outcome" }
            c: { expr: "vars.fromMenu.outcome + vars.fromHttp.outcome + vars.fromSubflow.outcome" }
            d: { expr: "vars.fromQueue.outcome + vars.fromDial.outcome + vars.fromRecord.outcome" }
            e: { expr: "vars.fromChannelVar.outcome + string(vars.fromStateOn) + string(vars.fromAfter)" }
            f: { expr: "string(vars.fromChoose)" }
          if: "vars.fromDial.outcome != ''"
      - hangup
subflows:
  pin:
    start: s
    vars: { own: 1 }
    states: { s: { final: true, output: { pin: { expr: "vars.own" } } } }
`;
    const errors = parseFlow(text, 't.yaml').diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map(formatDiagnostic)).toEqual([]);
    // A subflow's variables are its own: the main flow's are not visible there.
    const leaked = text.replace(
      'output: { pin: { expr: "vars.own" } }',
      'output: { pin: { expr: "vars.declared" } }',
    );
    expect(
      parseFlow(leaked, 't.yaml')
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => [d.code, d.path.join('.')]),
    ).toEqual([['RF303', 'subflows.pin.states.s.output.pin.expr']]);
  });
});
