import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dialplan } from './Dialplan.ts';
import { DialplanSyntaxError } from './DialplanSyntaxError.ts';
import { parseDialplan } from './parseDialplan.ts';

const FILE = 'extensions.conf';

function parse(text: string): Dialplan {
  return parseDialplan(text, FILE);
}

/** The issues of a dialplan that must fail. */
function errorsOf(text: string) {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof DialplanSyntaxError) return error.issues;
    throw error;
  }
  throw new Error('expected a DialplanSyntaxError');
}

function extension(dp: Dialplan, context: string, name: string) {
  const found = dp.contexts.get(context)?.extensions.find((e) => e.name === name);
  if (!found) throw new Error(`no ${context},${name}`);
  return found;
}

describe('parseDialplan: constructs', () => {
  it('reads exten and same lines with numeric, n, labelled and n+k priorities', () => {
    const dp = parse(`
[default]
exten => 100,1,NoOp(\${CONTEXT} \${EXTEN})
 same => n(menu),Playback(beep)
 same => n(back),Stasis(demo-app,back-from-dialplan)
 same => n+1,Hangup()
exten => 101,1,Answer
exten => 101,2,Wait(1)
`);
    const e100 = extension(dp, 'default', '100');
    expect([...e100.priorities.keys()]).toEqual([1, 2, 3, 5]);
    expect(e100.labels).toEqual(
      new Map([
        ['menu', 2],
        ['back', 3],
      ]),
    );
    expect(e100.priorities.get(1)).toMatchObject({ app: 'NoOp', appData: '${CONTEXT} ${EXTEN}' });
    expect(e100.priorities.get(3)).toMatchObject({
      app: 'Stasis',
      appData: 'demo-app,back-from-dialplan',
      label: 'back',
    });
    expect(e100.priorities.get(2)?.position).toEqual({ file: FILE, line: 4, column: 2 });
    expect(extension(dp, 'default', '101').priorities.get(1)).toMatchObject({ app: 'Answer', appData: '' });
  });

  it('takes the arguments to the LAST parenthesis, keeping inner ones', () => {
    const dp = parse('[c]\nexten => s,1,Set(CALLERID(name)=Bob (home))');
    expect(extension(dp, 'c', 's').priorities.get(1)).toMatchObject({
      app: 'Set',
      appData: 'CALLERID(name)=Bob (home)',
    });
  });

  it('reads a label used as a priority base (label+1) and the s (same) priority', () => {
    const dp = parse(
      '[c]\nexten => 1,1(start),NoOp()\nexten => 1,start+1,NoOp(two)\nexten => 2,s,NoOp(same as last)',
    );
    expect(extension(dp, 'c', '1').priorities.get(2)?.appData).toBe('two');
    expect([...extension(dp, 'c', '2').priorities.keys()]).toEqual([2]);
  });

  it('keeps hint lines as the extension hint, not as a priority', () => {
    const dp = parse('[c]\nexten => 100,hint,PJSIP/alice&PJSIP/bob\nexten => 100,1,Answer()');
    const e = extension(dp, 'c', '100');
    expect(e.hint).toMatchObject({ device: 'PJSIP/alice&PJSIP/bob', position: { line: 2 } });
    expect([...e.priorities.keys()]).toEqual([1]);
  });

  it('strips ; comments, ;-- block --; comments (nested, multi-line) and keeps \\; as a semicolon', () => {
    const dp = parse(`
;-- a block
exten => 1,1,Broken(
  ;-- nested --;
still comment --;
[c] ; the context
exten => 1,1,NoOp(a\\;b) ; trailing
exten => 2,1,NoOp(;-- inline --;kept)
`);
    expect(extension(dp, 'c', '1').priorities.get(1)?.appData).toBe('a;b');
    expect(extension(dp, 'c', '2').priorities.get(1)?.appData).toBe('kept');
    expect(dp.warnings).toEqual([]);
  });

  it('returns globals (substituted in order) and general options, and merges repeated sections', () => {
    const dp = parse(`
[general]
autofallthrough=yes
[globals]
BASE=ringflow
APP=\${BASE}-demo
[c]
exten => 1,1,NoOp()
[c]
exten => 2,1,NoOp()
`);
    expect(dp.globals).toEqual(
      new Map([
        ['BASE', 'ringflow'],
        ['APP', 'ringflow-demo'],
      ]),
    );
    expect(dp.general.get('autofallthrough')).toBe('yes');
    expect(dp.contexts.get('c')?.extensions.map((e) => e.name)).toEqual(['1', '2']);
    expect(dp.contexts.has('general')).toBe(false);
  });

  it('reads includes, with time conditions warned about', () => {
    const dp = parse('[a]\ninclude => b\ninclude => c,9:00-17:00,mon-fri,*,*\n[b]\n[c]');
    expect(dp.contexts.get('a')?.includes.map((i) => i.context)).toEqual(['b', 'c']);
    expect(dp.warnings).toHaveLength(1);
    expect(dp.warnings[0]).toMatchObject({
      position: { line: 3 },
      message: expect.stringMatching(/always included/),
    });
  });

  it('sorts the extensions of a context in match order', () => {
    const dp = parse(
      '[c]\nexten => _X.,1,NoOp()\nexten => _1XX,1,NoOp()\nexten => 100,1,NoOp()\nexten => _X!,1,NoOp()',
    );
    expect(dp.contexts.get('c')?.extensions.map((e) => e.name)).toEqual(['100', '_1XX', '_X.', '_X!']);
  });

  it('treats differently written spellings of one extension as the same extension', () => {
    const dp = parse(
      '[c]\nexten => 555-1234,1,NoOp()\nexten => 5551234,2,NoOp()\nexten => _nxx,1,NoOp()\nexten => _NXX,2,NoOp()',
    );
    expect(dp.contexts.get('c')?.extensions.map((e) => [e.name, e.priorities.size])).toEqual([
      ['555-1234', 2],
      ['_nxx', 2],
    ]);
  });

  it('reads templates: (!) is not a context, (name) copies its lines first, (+) appends', () => {
    const dp = parse(`
[base](!)
exten => h,1,NoOp(hung up)
[sales](base)
exten => 1,1,Answer()
[sales](+)
exten => 2,1,Answer()
`);
    expect(dp.contexts.has('base')).toBe(false);
    expect(dp.contexts.get('sales')?.extensions.map((e) => e.name)).toEqual(['1', '2', 'h']);
  });

  it('parses with no line continuation: a trailing backslash is data', () => {
    const dp = parse('[c]\nexten => 1,1,NoOp(a\\\nexten => 2,1,NoOp()');
    expect(dp.contexts.get('c')?.extensions.map((e) => e.name)).toEqual(['1', '2']);
  });
});

describe('parseDialplan: warnings (the dialplan still loads)', () => {
  it('names file, line and application for an application the simulator does not implement', () => {
    const dp = parse('[c]\nexten => 1,1,Answer()\n same => n,Dial(PJSIP/bob,30)');
    expect(dp.warnings).toEqual([
      {
        severity: 'warning',
        message: expect.stringMatching(/application "Dial" is not implemented/),
        position: { file: FILE, line: 3, column: 12 },
      },
    ]);
  });

  it('matches applications case-insensitively', () => {
    expect(parse('[c]\nexten => 1,1,playback(beep)\nexten => 1,2,HANGUP()').warnings).toEqual([]);
  });

  it('warns about _. , unknown directives, switches, missing includes and unclosed parentheses', () => {
    const dp = parse(
      '[c]\nexten => _.,1,NoOp()\nfrobnicate => 1\nswitch => Realtime/x\ninclude => nowhere\nexten => 2,1,NoOp(open\n;-- never closed',
    );
    expect(dp.warnings.map((w) => w.position.line)).toEqual([2, 3, 4, 5, 6, 7]);
    const messages = dp.warnings.map((w) => w.message);
    expect(messages[0]).toMatch(/the pattern "_\." also matches the special extensions/);
    expect(messages[1]).toMatch(/unknown directive "frobnicate" in \[c\] is ignored/);
    expect(messages[2]).toMatch(/"switch => Realtime\/x" is not simulated/);
    expect(messages[3]).toMatch(/context "c" includes "nowhere", which does not exist/);
    expect(messages[4]).toMatch(/no closing parenthesis in "NoOp\(open"/);
    expect(messages[5]).toMatch(/block comment ';--' opened here is never closed/);
  });
});

describe('parseDialplan: errors (all reported at once, with positions)', () => {
  it.each([
    ['[c\nexten => 1,1,NoOp()', 1, /expected '\]' to close/],
    ['exten => 1,1,NoOp()', 1, /outside any section: add a \[context\] header/],
    ['[c]\nexten 1,1,NoOp()', 2, /expected "name => value"/],
    ['[c]\nexten => 1', 2, /expected "exten => extension,priority,Application\(args\)"/],
    ['[c]\nexten => 1,1', 2, /expected ",Application\(args\)" after the priority "1"/],
    ['[c]\nexten => 1,n,NoOp()', 2, /"n" needs a previous priority/],
    ['[c]\nsame => n,NoOp()', 2, /"same =>" needs an "exten =>" line before it/],
    ['[c]\nexten => 1,x,NoOp()', 2, /expected a priority \(a number, n, s, hint, or a label/],
    ['[c]\nexten => 1,0,NoOp()', 2, /priorities start at 1/],
    ['[c]\nexten => 1,1(menu,NoOp()', 2, /has no closing '\)'/],
    [
      '[c]\nexten => 1,1,NoOp()\nexten => 1,1,Answer()',
      3,
      /priority 1 of extension 1 in \[c\] is already defined at line 2/,
    ],
    ['[c]\nexten => _[1-5X,1,NoOp()', 2, /unclosed '\['/],
    ['[c]\nexten => ,1,NoOp()', 2, /expected an extension/],
    ['[c]\nexten => 1,1,', 2, /expected an application after the priority/],
    ['[c]\nexten => 1,hint,SIP/a\n same => n,NoOp()', 3, /right after a hint line/],
    ['[c]\n#exec /bin/date', 2, /unsupported directive/],
    ['[c]\n#include other.conf', 2, /needs a file system: load the dialplan with loadDialplanFile/],
    ['[c](nosuch)', 1, /inherits from "nosuch"/],
  ])('%j -> line %i', (text, line, message) => {
    const issues = errorsOf(text);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ severity: 'error', position: { file: FILE, line }, message });
  });

  it('points at the column of the offending field', () => {
    const [issue] = errorsOf('[c]\n  exten => 100,bogus,NoOp()');
    expect(issue?.position).toEqual({ file: FILE, line: 2, column: 16 });
  });

  it('reports every error, in line order, in the thrown message', () => {
    let error: unknown;
    try {
      parse('[c]\nexten => 1,x,NoOp()\nbad line\nexten => 2,1,NoOp()\nexten => 3,0,NoOp()');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DialplanSyntaxError);
    const syntax = error as DialplanSyntaxError;
    expect(syntax.code).toBe('CONFIG');
    expect(syntax.issues.map((i) => i.position.line)).toEqual([2, 3, 5]);
    expect(syntax.message).toMatch(/extensions\.conf:2:\d+: error: expected a priority/);
    expect(syntax.message).toMatch(/extensions\.conf:3:1: error: expected "name => value"/);
  });
});

describe('parseDialplan: fuzz', () => {
  const fragments = fc.constantFrom(
    '[',
    ']',
    '[c]',
    '(',
    ')',
    '(!)',
    '(+)',
    ',',
    '=>',
    '=',
    'exten',
    'same',
    'include',
    'hint',
    'n',
    '+1',
    '_',
    'X',
    '.',
    '!',
    '[1-5]',
    '1',
    's',
    'NoOp',
    'Goto',
    ';',
    ';--',
    '--;',
    '\\',
    '${',
    '}',
    '$[',
    ' ',
    '#include x',
    '\n',
  );
  const line = fc.oneof(
    fc.string(),
    fc.array(fragments, { maxLength: 12 }).map((parts) => parts.join('')),
  );

  it('either parses or throws a DialplanSyntaxError with positioned issues, never anything else', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 15 }), (lines) => {
        const text = lines.join('\n');
        try {
          const dp = parse(text);
          for (const w of dp.warnings) expect(w.position.line).toBeGreaterThanOrEqual(1);
        } catch (error) {
          expect(error).toBeInstanceOf(DialplanSyntaxError);
          for (const issue of (error as DialplanSyntaxError).issues) {
            expect(issue.position.file).toBe(FILE);
            expect(issue.position.line).toBeGreaterThanOrEqual(1);
            expect(issue.position.line).toBeLessThanOrEqual(text.split(/\r\n|\n|\r/).length);
            expect(issue.message.length).toBeGreaterThan(10);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
