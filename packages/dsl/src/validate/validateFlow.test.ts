import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineFlow } from '../defineFlow.ts';
import { FlowValidationError } from '../FlowValidationError.ts';
import { parseFlow } from '../parseFlow.ts';
import { formatDiagnostic } from './Diagnostic.ts';

function problems(text: string) {
  const result = parseFlow(text, 'test.yaml');
  return result.diagnostics.map((d) => ({
    at: `${d.line}:${d.column}`,
    code: d.code,
    severity: d.severity,
    message: d.message,
  }));
}

const minimal = (states: string, extra = '') => `name: t\nstart: a\n${extra}states:\n${states}`;

describe('validation of YAML flows', () => {
  it('reports every problem of a broken file at once, each with line:col and a stable code', () => {
    const text = readFileSync(new URL('./fixtures/broken-many.yaml', import.meta.url), 'utf8');
    const result = parseFlow(text, 'broken-many.yaml');
    expect(result.ok).toBe(false);
    const lines = result.diagnostics.map(formatDiagnostic);
    expect(lines).toEqual([
      'broken-many.yaml:12:9 error RF101 unknown-step: Unknown step "plya". Did you mean "play"?',
      'broken-many.yaml:13:25 error RF310 unknown-prompt: No prompt named "welcom" in the catalogue. Did you mean "welcome"?',
      'broken-many.yaml:13:33 error RF100 unknown-field: Unknown field "bargin". Did you mean "bargeIn"?',
      'broken-many.yaml:16:20 error RF105 invalid-duration: "5 seconds" is not valid: expected a number with a unit: 500ms, 5s, 2m or 1h.',
      'broken-many.yaml:19:18 error RF200 unknown-target: No state named "suport". States are: greet, sales, bye, lost.',
      'broken-many.yaml:23:28 error RF300 expression-syntax: In expression "vars.tries >": Unexpected token: EOF.',
      'broken-many.yaml:25:16 error RF303 unknown-variable: "vars.trys" is never declared or assigned (it would always be missing at run time). Did you mean "tries"? If not, declare it (vars: { trys: <initial value> }) or assign it (a set, or as: trys on a step).',
      expect.stringMatching(
        /^broken-many\.yaml:30:27 error RF104 invalid-value: "bogus" is not allowed here; expected one of "normal", "busy"/,
      ),
      'broken-many.yaml:31:3 warning RF201 unreachable-state: State "lost" can never be entered: no transition leads to it from "greet". Remove it or add a transition to it.',
      'broken-many.yaml:33:7 error RF208 unknown-event: Unknown event "dtnf". Did you mean "dtmf"?',
    ]);
  });

  it('treats a bare `- set:` as assigning nothing, also beside expressions (found by fuzzing)', () => {
    const result = parseFlow(
      minimal(
        '  a:\n    steps:\n      - set:\n      - play: { media: { expr: "\'sound:beep\'" } }\n    final: true\n',
      ),
      'set.yaml',
    );
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('positions YAML syntax errors and never throws', () => {
    const found = problems('name: t\nstart: a\nstates:\n  a:\n    steps: [answer\n');
    expect(found[0]).toMatchObject({ code: 'RF001', severity: 'error' });
    expect(found[0]!.at).toMatch(/^[56]:\d+$/);
    expect(problems('name: t\nname: u\nstart: a\nstates: {}\n')[0]).toMatchObject({
      code: 'RF001',
      at: '2:1',
    });
  });

  it('says what type was expected and how to fix it', () => {
    const found = problems(
      minimal(
        '  a:\n    steps:\n      - gather: { maxDigits: "4", firstDigitTimeout: soon }\n      - hangup\n',
      ),
    );
    expect(found).toEqual([
      {
        at: '6:30',
        code: 'RF102',
        severity: 'error',
        message: 'Expected a whole number, found text "4". Remove the quotes.',
      },
      {
        at: '6:54',
        code: 'RF105',
        severity: 'error',
        message: '"soon" is not valid: expected a number with a unit: 500ms, 5s, 2m or 1h.',
      },
    ]);
  });

  it('checks media URIs, prompts and languages', () => {
    const found = problems(
      minimal(
        '  a:\n    steps:\n      - play: { media: "tone:ring;zone=fr" }\n      - play: { media: [sound:ok, "mp3:x"] }\n      - play: { prompt: hi, language: de }\n      - hangup\n',
        'prompts:\n  en: { hi: sound:hello }\n',
      ),
    );
    expect(found.map((f) => [f.at, f.code])).toEqual([
      ['8:24', 'RF106'],
      ['9:35', 'RF106'],
      ['10:39', 'RF311'],
    ]);
    expect(found[0]!.message).toContain(';tonezone=');
  });

  it('finds eventless loops and states with no way to end the call', () => {
    const found = problems(
      minimal('  a:\n    steps:\n      - set: { n: 1 }\n    next: b\n  b:\n    next: a\n'),
    );
    expect(found.map((f) => [f.code, f.severity])).toEqual([
      ['RF202', 'warning'],
      ['RF202', 'warning'],
      ['RF204', 'error'],
    ]);
    expect(found[2]!.message).toContain('"a" -> "b" -> "a"');
    // A condition breaks the loop: XState re-checks it only when something changes.
    const guarded = problems(
      minimal(
        '  a:\n    choose:\n      - when: vars.n > 1\n        goto: b\n  b:\n    steps: [hangup]\n',
        'vars: { n: 0 }\n',
      ),
    );
    expect(guarded).toEqual([]);
  });

  it('checks outcomes, subflow names and inputs, and expressions against declared inputs', () => {
    const found = problems(
      minimal(
        '  a:\n    steps:\n      - play: { media: sound:x, on: { finished: a } }\n      - subflow: { flow: pinn, inputs: { x: 1 } }\n      - subflow: { flow: pin, inputs: { tries: 1 } }\n      - set: { v: { expr: "input.lang" } }\n      - hangup\n',
        'subflows:\n  pin:\n    inputs: { max: { type: number, required: true } }\n    start: s\n    states: { s: { final: true } }\n',
      ),
    );
    expect(found.map((f) => [f.at, f.code])).toEqual([
      ['11:39', 'RF209'],
      ['12:26', 'RF205'],
      ['13:31', 'RF207'],
      ['13:41', 'RF206'],
      ['14:28', 'RF303'],
    ]);
  });

  it('checks opening hours written in isOpen calls', () => {
    const found = problems(
      minimal(
        '  a:\n    choose:\n      - when: isOpen(now, "Mon-Fry 09:00-17:00", "Europe/Pariss")\n        goto: b\n      - goto: b\n  b:\n    steps: [hangup]\n',
      ),
    );
    expect(found.map((f) => f.code)).toEqual(['RF320', 'RF320']);
    expect(found[0]!.message).toContain('"Mon-Fry"');
  });

  it('accepts flows/ivr.yaml without errors or warnings', () => {
    const text = readFileSync(new URL('../../../../flows/ivr.yaml', import.meta.url), 'utf8');
    expect(parseFlow(text, 'flows/ivr.yaml').diagnostics.map(formatDiagnostic)).toEqual([]);
  });
});

describe('defineFlow (TypeScript builder)', () => {
  it('goes through the same validator and reports paths', () => {
    const attempt = () =>
      defineFlow({
        name: 'x',
        start: 'a',
        states: { a: { steps: ['answer', { play: { prompt: 'nope' } }], next: 'b' } },
      });
    expect(attempt).toThrow(FlowValidationError);
    try {
      attempt();
    } catch (e) {
      const lines = (e as FlowValidationError).diagnostics.map(formatDiagnostic);
      expect(lines).toEqual([
        'defineFlow(x) states.a.next error RF200 unknown-target: No state named "b". States are: a.',
        'defineFlow(x) states.a.steps[1].play.prompt error RF310 unknown-prompt: No prompt named "nope" in the catalogue. Add it under prompts.<language>.',
        'defineFlow(x) states.a warning RF202 no-hangup-path: From state "a" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).',
      ]);
    }
  });
});

describe('checks people ask of call flows', () => {
  it('a menu key with no choice, a state that can wait forever', () => {
    const found = problems(
      minimal(
        `  a:
    steps:
      - menu: { media: sound:x, choices: { "1": b, "2": { set: { x: 1 } } }, on: { exhausted: c } }
  b:
    on: { dtmf: c }
  c:
    steps: [hangup]
  d:
    steps:
      - dial: { endpoint: PJSIP/x, on: { completed: c, busy: c, noAnswer: c } }
  e:
    steps:
      - dial: { endpoint: PJSIP/x, bridge: false, on: { answered: c, busy: c, noAnswer: c } }
`,
        'on: { userEvent: d, userEvent:E: e }\n',
      ),
    );
    // Key 2 goes on past the menu, so state a can then wait for ever too; d and e leave on every outcome.
    expect(found).toEqual([
      expect.objectContaining({
        at: '5:3',
        code: 'RF211',
        message: expect.stringContaining('State "a" waits'),
      }),
      expect.objectContaining({
        at: '7:52',
        code: 'RF210',
        severity: 'warning',
        message: expect.stringContaining('Key "2" has no choice'),
      }),
      expect.objectContaining({
        at: '9:5',
        code: 'RF211',
        severity: 'warning',
        message: expect.stringContaining('State "b" waits for dtmf with no timer'),
      }),
    ]);
  });
});

describe('YAML keys', () => {
  it('reports a list used as a key at its place, instead of a warning from the YAML library', () => {
    expect(problems('name: t\nstart: a\nstates:\n  [a]: { steps: [hangup] }\n')).toEqual([
      expect.objectContaining({
        at: '4:3',
        code: 'RF001',
        severity: 'error',
        message: expect.stringContaining('keys are names'),
      }),
    ]);
  });
});

describe('subflow inputs', () => {
  it('a literal given to a subflow input must fit its declared type', () => {
    const found = problems(
      minimal(
        '  a:\n    steps:\n      - subflow: { flow: pin, inputs: { max: many, vip: { expr: "1 + 1" } } }\n      - hangup\n',
        'subflows:\n  pin:\n    inputs: { max: { type: number }, vip: { type: boolean } }\n    start: s\n    states: { s: { final: true } }\n',
      ),
    );
    expect(found).toEqual([
      expect.objectContaining({
        at: '11:46',
        code: 'RF102',
        message: 'Input "max" of subflow "pin" is declared number, found the text "many".',
      }),
    ]);
  });
});

describe('queues', () => {
  it('a queue step names a queue of the document, a queue has endpoints and a known strategy', () => {
    const found = problems(
      minimal(
        `  a:
    steps:
      - queue: { name: suport, maxWait: 5m, exitKey: "12", on: { timeout: b } }
      - queueAgent: { queue: sales, agent: PJSIP/x, action: pause }
    next: b
  b: { steps: [hangup] }
`,
        'queues:\n  support: { agents: [PJSIP/alice, bob], strategy: roundrobin }\n',
      ),
    );
    expect(found).toEqual([
      expect.objectContaining({
        at: '4:36',
        code: 'RF104',
        message: expect.stringContaining('an endpoint like PJSIP/alice'),
      }),
      expect.objectContaining({
        at: '4:52',
        code: 'RF104',
        message: expect.stringContaining('"roundRobin"'),
      }),
      expect.objectContaining({
        at: '8:24',
        code: 'RF212',
        message: 'No queue named "suport". Did you mean "support"?',
      }),
      expect.objectContaining({
        at: '8:54',
        code: 'RF104',
        message: '"12" is not valid: expected one key: 0-9, *, # or A-D.',
      }),
      expect.objectContaining({
        at: '9:30',
        code: 'RF212',
        message: expect.stringContaining('No queue named "sales"'),
      }),
    ]);
  });
});

describe('options written beside their step', () => {
  it('gives one error that names the fix, and still checks the rest of the step', () => {
    const text = minimal(
      `  a:
    steps:
      - answer
      - gather: { prompt: ask, maxDigits: 4, on: { noInput: byee } }
        as: zip
      - play: { prompt: ask }
        if: "vars.zip.digits == '1'"
        onn: { done: a }
    next: bye
  bye:
    steps: [hangup]
`,
      'prompts: { en: { ask: sound:demo-instruct } }\n',
    );
    expect(parseFlow(text, 't.yaml').diagnostics.map(formatDiagnostic)).toEqual([
      't.yaml:8:61 error RF200 unknown-target: No state named "byee". Did you mean "bye"?',
      't.yaml:9:9 error RF100 unknown-field: "as" belongs inside the gather step: gather: { ..., as: zip }.',
      't.yaml:11:9 error RF100 unknown-field: "if" belongs inside the play step: play: { ..., if: "vars.zip.digits == \'1\'" }.',
      't.yaml:12:9 error RF100 unknown-field: "onn" belongs inside the play step (did you mean "on"?): play: { ..., on: ... }.',
    ]);
  });

  it('still checks what such an option holds, and says when two steps share an item', () => {
    const found = problems(
      minimal(
        '  a:\n    steps:\n      - play: { media: sound:x }\n        if: "vars.x >"\n      - answer: {}\n        hangup: {}\n',
      ),
    );
    const errors = found.filter((f) => f.severity === 'error');
    expect(errors.map((f) => [f.at, f.code])).toEqual([
      ['7:9', 'RF100'],
      ['7:22', 'RF300'],
      ['8:9', 'RF104'],
    ]);
    expect(errors[2]!.message).toMatch(/found 2 \(answer, hangup\)/);
  });
});

describe('one naming rule', () => {
  const named = `name: names
vars: { ask-zip: 0 }
inputs: { max-tries: { type: number, default: 3 } }
prompts: { en: { ask-zip: sound:demo-instruct } }
queues: { sales-eu: { agents: [PJSIP/201] } }
subflows:
  check-pin: { start: s, states: { s: { final: true } } }
start: ask-zip
states:
  ask-zip:
    steps:
      - gather: { prompt: ask-zip, as: zip-code }
      - set: { tries-left: { expr: "input['max-tries'] - 1" } }
      - subflow: { flow: check-pin }
    choose:
      - when: "vars['ask-zip'] == 0 && vars['zip-code'].digits == '1' && vars['tries-left'] > 0"
        goto: queue-up
      - goto: bye
  queue-up:
    steps: [{ queue: { name: sales-eu } }]
    next: bye
  bye: { steps: [hangup] }
`;

  it('takes letters, digits, _ and - in every name a flow defines; expressions read them with brackets', () => {
    expect(problems(named).filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('says the same for every kind of name that breaks it', () => {
    const found = problems(
      named
        .replace('ask-zip: 0', '"ask zip": 0')
        .replace('{ ask-zip: sound', '{ "1ask": sound')
        .replace('as: zip-code', 'as: zip.code'),
    ).filter((p) => p.code === 'RF104');
    expect(found.map((p) => p.message)).toEqual([
      '"ask zip" is not a valid name here: expected a variable name (letters, digits, _ and -, starting with a letter or _).',
      '"1ask" is not a valid name here: expected a prompt name (letters, digits, _ and -, starting with a letter or _).',
      '"zip.code" is not valid: expected a variable name (letters, digits, _ and -, starting with a letter or _).',
    ]);
  });

  it("refuses queue names whose agents' device states would mix (sales and sales-eu)", () => {
    const found = problems(
      named.replace('queues: { sales-eu:', 'queues: { sales: { agents: [PJSIP/1] }, sales-eu:'),
    );
    expect(found.filter((p) => p.severity === 'error').map((p) => [p.at, p.code])).toEqual([
      ['5:41', 'RF104'],
    ]);
  });

  it('tells how to read a name with "-" when an expression reads it as a subtraction', () => {
    const found = problems(named.replace("vars['ask-zip'] == 0", 'vars.ask-zip == 0'));
    expect(found.filter((p) => p.severity === 'error').map((p) => [p.code, p.message])).toEqual([
      [
        'RF303',
        expect.stringContaining(
          `vars.ask-zip is read as vars.ask - zip. A name with "-" is read with brackets: vars['ask-zip'].`,
        ),
      ],
    ]);
    // A misspelt one read with brackets is refused like any other, with the name meant.
    expect(problems(named.replace("vars['zip-code']", "vars['zip-cod']"))).toEqual([
      expect.objectContaining({
        code: 'RF303',
        message: expect.stringMatching(/^"vars\['zip-cod'\]" is never declared .* Did you mean "zip-code"\?/),
      }),
    ]);
  });
});

describe('beside a step without options', () => {
  it('says the set step takes none, and how to assign under a condition', () => {
    const found = problems(
      minimal(
        '  a:\n    steps:\n      - set: { n: 1 }\n        if: "vars.n == 0"\n      - hangup\n',
        'vars: { n: 0 }\n',
      ),
    );
    expect(found.map((f) => [f.at, f.code, f.message])).toEqual([
      [
        '8:9',
        'RF100',
        '"if" cannot go beside the set step: a step item has only its name as key, and the set step takes no options (each entry assigns a variable; to assign only when a condition holds, use set on a transition with if).',
      ],
    ]);
  });
});

describe('a misspelt step with its options beside it', () => {
  it('tells the name once with the step meant, and each option as belonging inside, without the list of steps', () => {
    const found = problems(
      minimal('  a:\n    steps:\n      - plya: { media: sound:x }\n        as: x\n      - hangup\n'),
    );
    expect(found.map((f) => [f.at, f.code, f.message])).toEqual([
      ['6:9', 'RF101', 'Unknown step "plya". Did you mean "play"?'],
      ['7:9', 'RF100', '"as" belongs inside the step: plya: { ..., as: x }.'],
    ]);
  });
});
