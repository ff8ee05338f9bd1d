import { describe, expect, it } from 'vitest';
import { parseDialplan } from './parseDialplan.ts';
import { resolveContinueTarget } from './resolveContinueTarget.ts';
import { runDialplan } from './runDialplan.ts';
import { FakeDialplanHost } from './testing/FakeDialplanHost.ts';

// The dialplan of the real server the reference traces were recorded on, plus test contexts.
const dialplan = parseDialplan(
  `
[globals]
GREETING=hello-world

[stasis-ivr]
exten => s,1,NoOp(\${CONTEXT} \${EXTEN})
 same => n,Stasis(demo-app)
exten => wait,1,Answer()
 same => n,Wait(60)

[default]
exten => 100,1,NoOp(\${CONTEXT} \${EXTEN})
 same => n(menu),Playback(beep)
 same => n(back),Stasis(demo-app,back-from-dialplan)
 same => n,Hangup()
exten => 101,1,NoOp(\${CONTEXT} \${EXTEN})
 same => n(menu),Playback(beep)
 same => n,Hangup()
exten => 300,1,NoOp(\${CONTEXT} \${EXTEN})
 same => n,UserEvent(OracleDialplanEvent,foo: bar,baz: qux)
 same => n,Stasis(demo-app,from-300)

[tests]
exten => vars,1,Set(COUNT=$[1 + 1])
 same => n,Set(GLOBAL(LAST)=\${EXTEN})
 same => n,Set(CALLERID(name)=Bob)
 same => n,NoOp(\${COUNT} \${GLOBAL(LAST)} \${CALLERID(name)} \${CALLERID(num)} \${GREETING})
exten => goto,1,Goto(target)
 same => n,NoOp(skipped)
 same => n(target),NoOp(landed)
 same => n,Goto(default,101,menu)
exten => gotoif,1,GotoIf($[\${COUNT} > 3]?big:small)
 same => n(small),NoOp(small)
 same => n,Hangup(USER_BUSY)
 same => n(big),NoOp(big)
exten => gotomissing,1,Goto(nowhere,s,1)
exten => badlabel,1,Goto(nolabel)
exten => unknown,1,Answer()
 same => n,Dial(PJSIP/bob)
 same => n,NoOp(never)
exten => play,1,Playback(\${GREETING}&beep)
 same => n,Playback(nosuchfile)
 same => n,NoOp(\${PLAYBACKSTATUS})
exten => quiet,1,Playback(beep,noanswer)
exten => skip,1,Playback(beep,skip)
 same => n,Progress()
 same => n,Ringing()
 same => n,Verbose(2,hello \${EXTEN})
 same => n,Log(WARNING,careful)
exten => stasis,1,Stasis(app-one,a,"b,c")
 same => n,NoOp(after stasis)
 same => n(exit),NoOp(at exit)
exten => loop,1,Goto(1)
exten => failingloop,1,Answer()
 same => n,Playback(nosuchfile)
 same => n,Goto(1)
exten => waitloop,1,Set(N=$[\${N} + 1])
 same => n,Wait(0.01)
 same => n,GotoIf($[\${N} < 4000]?1)
exten => h,1,NoOp(hangup handler \${EXTEN})

[with-invalid]
exten => 1,1,Goto(2,1)
exten => i,1,NoOp(invalid \${INVALID_EXTEN})

[start]
exten => s,1,NoOp(fell back to s)
`,
  'extensions.conf',
);

async function run(context: string, exten: string, priority: number | string, script = {}) {
  const host = new FakeDialplanHost(dialplan, script);
  const end = await runDialplan(host, { context, exten, priority });
  return { host, end };
}

describe('runDialplan: the real traces', () => {
  it('continue at default,100,menu plays a beep and returns to Stasis with back-from-dialplan (scenario 09)', async () => {
    const { host, end } = await run('default', '100', 'menu');
    expect(host.steps()).toEqual([
      'default,100,2 Playback(beep)',
      'default,100,3 Stasis(demo-app,back-from-dialplan)',
    ]);
    expect(host.calls).toContainEqual({ op: 'set', name: 'PLAYBACKSTATUS', value: 'SUCCESS' });
    expect(host.calls).toContainEqual({ op: 'stasis', app: 'demo-app', args: ['back-from-dialplan'] });
    expect(end).toEqual({ reason: 'hungup', location: { context: 'default', exten: '100', priority: 3 } });
  });

  it('default,101 from priority 1 ends in Hangup with cause 16', async () => {
    const { host, end } = await run('default', '101', 1);
    expect(host.steps()).toEqual([
      'default,101,1 NoOp(default 101)',
      'default,101,2 Playback(beep)',
      'default,101,3 Hangup()',
    ]);
    expect(host.calls.filter((c) => c.op === 'hangup')).toEqual([{ op: 'hangup', cause: 16 }]);
    expect(end).toMatchObject({ reason: 'hangup-application', cause: 16 });
  });

  it('default,300 raises the user event with its fields, then enters Stasis with from-300', async () => {
    const { host } = await run('default', '300', 1);
    expect(host.steps()[1]).toBe('default,300,2 UserEvent(OracleDialplanEvent,foo: bar,baz: qux)');
    expect(host.calls).toContainEqual({
      op: 'userEvent',
      name: 'OracleDialplanEvent',
      fields: { foo: 'bar', baz: 'qux' },
    });
    expect(host.calls).toContainEqual({ op: 'stasis', app: 'demo-app', args: ['from-300'] });
  });

  it('stasis-ivr,wait answers, waits 60 s through the host, then runs off the end', async () => {
    const { host, end } = await run('stasis-ivr', 'wait', 1);
    expect(host.steps()).toEqual(['stasis-ivr,wait,1 Answer()', 'stasis-ivr,wait,2 Wait(60)']);
    expect(host.calls).toContainEqual({ op: 'wait', ms: 60_000 });
    expect(end).toEqual({
      reason: 'end-of-extension',
      cause: 0,
      location: { context: 'stasis-ivr', exten: 'wait', priority: 3 },
    });
    expect(host.calls.at(-1)).toEqual({ op: 'hangup', cause: 0 });
  });

  it('continue to a missing context moves the channel there and hangs up (scenario 09)', async () => {
    const { host, end } = await run('nosuchcontext', 's', 1);
    expect(host.steps()).toEqual([]);
    expect(host.calls).toContainEqual({
      op: 'location',
      step: { context: 'nosuchcontext', exten: 's', priority: 1 },
    });
    expect(end).toMatchObject({ reason: 'no-such-extension', cause: 0 });
  });
});

describe('runDialplan: applications', () => {
  it('Set writes variables, globals and the caller id, all visible to later substitution', async () => {
    const { host } = await run('tests', 'vars', 1);
    expect(host.calls).toContainEqual({ op: 'set', name: 'COUNT', value: '2' });
    expect(host.calls).toContainEqual({ op: 'setGlobal', name: 'LAST', value: 'vars' });
    expect(host.calls).toContainEqual({ op: 'callerId', change: { name: 'Bob' } });
    expect(host.steps()[3]).toBe('tests,vars,4 NoOp(2 vars Bob 1000 hello-world)');
  });

  it('Goto jumps to a label and to context,exten,label', async () => {
    const { host } = await run('tests', 'goto', 1);
    expect(host.steps()).toEqual([
      'tests,goto,1 Goto(target)',
      'tests,goto,3 NoOp(landed)',
      'tests,goto,4 Goto(default,101,menu)',
      'default,101,2 Playback(beep)',
      'default,101,3 Hangup()',
    ]);
  });

  it('GotoIf takes the branch its condition selects', async () => {
    const small = new FakeDialplanHost(dialplan);
    small.variables.set('COUNT', '2');
    const end = await runDialplan(small, { context: 'tests', exten: 'gotoif', priority: 1 });
    expect(small.steps().slice(1)).toEqual([
      'tests,gotoif,2 NoOp(small)',
      'tests,gotoif,3 Hangup(USER_BUSY)',
      'tests,h,1 NoOp(hangup handler h)',
    ]);
    expect(end).toMatchObject({ reason: 'hangup-application', cause: 17 });

    const big = new FakeDialplanHost(dialplan);
    big.variables.set('COUNT', '7');
    await runDialplan(big, { context: 'tests', exten: 'gotoif', priority: 1 });
    expect(big.steps()[1]).toBe('tests,gotoif,4 NoOp(big)');
  });

  it('Goto to a missing target hangs up; to an unknown label fails the call', async () => {
    const missing = await run('tests', 'gotomissing', 1);
    expect(missing.end).toMatchObject({ reason: 'no-such-extension', location: { context: 'nowhere' } });
    const badLabel = await run('tests', 'badlabel', 1);
    expect(badLabel.end).toMatchObject({ reason: 'application-failed', cause: 0 });
    expect(badLabel.host.logs('warning')[0]).toMatch(
      /Priority 'nolabel' must be a number > 0, or valid label/,
    );
  });

  it('reports an application the simulator does not implement and hangs up there', async () => {
    const { host, end } = await run('tests', 'unknown', 1);
    // Nothing runs at priority 2; the context's h extension runs after the hangup request.
    expect(host.steps()).toEqual(['tests,unknown,1 Answer()', 'tests,h,1 NoOp(hangup handler h)']);
    expect(host.logs('warning')[0]).toMatch(
      /No application 'Dial' for extension \(tests, unknown, 2\) \(extensions\.conf:\d+\)/,
    );
    expect(end).toMatchObject({ reason: 'unknown-application', cause: 0, location: { priority: 2 } });
  });

  it('Playback plays &-joined files, answers first, and sets PLAYBACKSTATUS (FAILED for a missing file)', async () => {
    const { host } = await run('tests', 'play', 1, { play: { nosuchfile: 'failed' } });
    const ops = host.calls.filter((c) => c.op !== 'location' && c.op !== 'log');
    expect(ops.slice(0, 6)).toEqual([
      { op: 'answer' },
      { op: 'play', files: ['hello-world', 'beep'] },
      { op: 'set', name: 'PLAYBACKSTATUS', value: 'SUCCESS' },
      { op: 'play', files: ['nosuchfile'] },
      { op: 'set', name: 'PLAYBACKSTATUS', value: 'FAILED' },
      { op: 'hangup', cause: 0 },
    ]);
    expect(host.steps()[2]).toBe('tests,play,3 NoOp(FAILED)');
  });

  it('Playback options: noanswer plays unanswered, skip plays nothing unless answered', async () => {
    const quiet = await run('tests', 'quiet', 1);
    expect(quiet.host.calls.some((c) => c.op === 'answer')).toBe(false);
    expect(quiet.host.calls).toContainEqual({ op: 'play', files: ['beep'] });
    const skip = await run('tests', 'skip', 1);
    expect(skip.host.calls.some((c) => c.op === 'play' || c.op === 'answer')).toBe(false);
    expect(skip.host.calls).toContainEqual({ op: 'indicate', indication: 'progress' });
    expect(skip.host.calls).toContainEqual({ op: 'indicate', indication: 'ringing' });
    expect(skip.host.calls).toContainEqual({ op: 'log', level: 'verbose', message: 'hello skip' });
    expect(skip.host.calls).toContainEqual({ op: 'log', level: 'warning', message: 'careful' });
  });
});

describe('runDialplan: Stasis', () => {
  it('passes arguments split as the real server does', async () => {
    const { host } = await run('tests', 'stasis', 1);
    expect(host.calls).toContainEqual({ op: 'stasis', app: 'app-one', args: ['a', 'b,c'] });
  });

  it('re-enters at a label the application continues to, and at the next priority without one', async () => {
    const here = { context: 'tests', exten: 'stasis', priority: 1 };
    const resolved = resolveContinueTarget(dialplan, here, {
      context: 'tests',
      extension: 'stasis',
      label: 'exit',
    });
    if (resolved.kind !== 'ok') throw new Error('label should resolve');
    const toLabel = await run('tests', 'stasis', 1, {
      stasis: [{ kind: 'continue', target: resolved.target }],
    });
    expect(toLabel.host.steps().slice(1, 2)).toEqual(['tests,stasis,3 NoOp(at exit)']);

    const next = await run('tests', 'stasis', 1, { stasis: [{ kind: 'continue' }] });
    expect(next.host.steps().slice(1, 3)).toEqual([
      'tests,stasis,2 NoOp(after stasis)',
      'tests,stasis,3 NoOp(at exit)',
    ]);

    const failed = await run('tests', 'stasis', 1, { stasis: [{ kind: 'failed' }] });
    expect(failed.host.steps()[1]).toBe('tests,stasis,2 NoOp(after stasis)');
  });

  it('ends when the channel hangs up in the application, running the h extension', async () => {
    const { host, end } = await run('tests', 'stasis', 1);
    expect(end.reason).toBe('hungup');
    expect(end.cause).toBeUndefined();
    expect(host.calls.some((c) => c.op === 'hangup')).toBe(false);
    expect(host.steps().at(-1)).toBe('tests,h,1 NoOp(hangup handler h)');
  });
});

describe('runDialplan: flow rules', () => {
  it('stops waiting when the channel hangs up during Wait, then runs h', async () => {
    const host = new FakeDialplanHost(dialplan, { hangUpDuringWait: 1 });
    const end = await runDialplan(host, { context: 'stasis-ivr', exten: 'wait', priority: 1 });
    expect(end).toEqual({
      reason: 'hungup',
      location: { context: 'stasis-ivr', exten: 'wait', priority: 2 },
    });
  });

  it('sends an invalid extension to the i extension with INVALID_EXTEN', async () => {
    const { host } = await run('with-invalid', '1', 1);
    expect(host.calls).toContainEqual({ op: 'set', name: 'INVALID_EXTEN', value: '2' });
    expect(host.steps().at(-1)).toBe('with-invalid,i,1 NoOp(invalid 2)');
  });

  it('falls back to s for a new channel whose extension does not exist', async () => {
    const host = new FakeDialplanHost(dialplan);
    await runDialplan(host, { context: 'start', exten: '12345', priority: 1 }, { newChannel: true });
    expect(host.steps()).toEqual(['start,s,1 NoOp(fell back to s)']);
  });

  it('ends a dialplan that loops without ever waiting instead of spinning forever', async () => {
    const { host, end } = await run('tests', 'loop', 1);
    expect(end.reason).toBe('application-failed');
    expect(host.logs('error')[0]).toMatch(/the dialplan loops/);
  });

  it('also ends a loop whose applications fail at once (a missing file), but not one that waits', async () => {
    const failing = await run('tests', 'failingloop', 1, { play: { nosuchfile: 'failed' } });
    expect(failing.end.reason).toBe('application-failed');
    const host = new FakeDialplanHost(dialplan);
    host.variables.set('N', '0');
    const waiting = await runDialplan(host, { context: 'tests', exten: 'waitloop', priority: 1 });
    expect(waiting.reason).toBe('end-of-extension');
    expect(host.variables.get('N')).toBe('4000');
  });

  it('ends at once for a channel that is already hung up', async () => {
    const host = new FakeDialplanHost(dialplan);
    host.hungUp = true;
    const end = await runDialplan(host, { context: 'default', exten: '101', priority: 1 });
    expect(end.reason).toBe('hungup');
    expect(host.steps()).toEqual([]);
  });
});
