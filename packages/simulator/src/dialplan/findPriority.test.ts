import { describe, expect, it } from 'vitest';
import { findExtension, findPriority } from './findPriority.ts';
import { parseDialplan } from './parseDialplan.ts';
import { resolveContinueTarget } from './resolveContinueTarget.ts';

const dialplan = parseDialplan(
  `
[main]
exten => 100,1,NoOp(exact)
 same => n(menu),Playback(beep)
exten => _1XX,1,NoOp(pattern)
 same => n,NoOp(pattern two)
 same => n,NoOp(pattern three)
exten => _X.,1,NoOp(catch-all)
include => extra
include => loop

[extra]
exten => 555,1,NoOp(from extra)
exten => _1XX,7(late),NoOp(extra seven)

[loop]
include => main
exten => 999,1,NoOp(loop)

[default]
exten => 100,1,NoOp()
 same => n(menu),Playback(beep)
 same => n(back),Stasis(demo-app,back-from-dialplan)
`,
  'extensions.conf',
);

const appData = (lookup: ReturnType<typeof findPriority>) =>
  lookup.kind === 'found' ? lookup.priority.appData : lookup.kind;

describe('findPriority / findExtension', () => {
  it('prefers the exact extension, then the most specific pattern', () => {
    expect(appData(findPriority(dialplan, 'main', '100', 1))).toBe('exact');
    expect(appData(findPriority(dialplan, 'main', '150', 1))).toBe('pattern');
    expect(appData(findPriority(dialplan, 'main', '2000', 1))).toBe('catch-all');
    expect(findExtension(dialplan, 'main', '150')?.extension.name).toBe('_1XX');
  });

  it('goes on to the next matching extension that HAS the priority, as the real server does', () => {
    // 100 has no priority 3; _1XX, the next match, does.
    expect(appData(findPriority(dialplan, 'main', '100', 3))).toBe('pattern three');
  });

  it('searches includes after the context, depth first, without looping', () => {
    // '555' would match _X. in main first; exact-in-include loses to a match in the context itself.
    expect(appData(findPriority(dialplan, 'main', '555', 1))).toBe('catch-all');
    expect(appData(findPriority(dialplan, 'main', '150', 7))).toBe('extra seven');
    expect(appData(findPriority(dialplan, 'main', '150', 'late'))).toBe('extra seven');
    expect(findExtension(dialplan, 'loop', '150')?.context.name).toBe('main');
    expect(findPriority(dialplan, 'loop', 'nothing', 1).kind).toBe('no-extension');
  });

  it('tells a missing context, extension, priority and label apart', () => {
    expect(findPriority(dialplan, 'nosuchcontext', 's', 1).kind).toBe('no-context');
    expect(findPriority(dialplan, 'extra', '556', 1).kind).toBe('no-extension');
    expect(findPriority(dialplan, 'main', '2000', 9).kind).toBe('no-priority');
    expect(findPriority(dialplan, 'main', '100', 'nolabel').kind).toBe('no-label');
  });
});

describe('resolveContinueTarget (ARI continue)', () => {
  const here = { context: 'stasis-ivr', exten: 's', priority: 1 };

  it('resolves a label in the given context and extension', () => {
    expect(
      resolveContinueTarget(dialplan, here, { context: 'default', extension: '100', label: 'menu' }),
    ).toEqual({
      kind: 'ok',
      target: { context: 'default', exten: '100', priority: 2 },
    });
  });

  it('lets a label win over a priority', () => {
    expect(
      resolveContinueTarget(dialplan, here, {
        context: 'default',
        extension: '100',
        label: 'back',
        priority: 2,
      }),
    ).toMatchObject({ target: { priority: 3 } });
  });

  it('refuses an unknown label (404) and a label of 0 (400)', () => {
    expect(
      resolveContinueTarget(dialplan, here, { context: 'default', extension: '100', label: 'nolabel' }),
    ).toEqual({
      kind: 'label-not-found',
    });
    expect(resolveContinueTarget(dialplan, here, { context: 'nosuch', label: 'menu' })).toEqual({
      kind: 'label-not-found',
    });
    expect(resolveContinueTarget(dialplan, here, { label: '0' })).toEqual({ kind: 'illegal-priority' });
  });

  it('goes to the next priority when nothing is given, to priority 1 otherwise', () => {
    expect(resolveContinueTarget(dialplan, here, {})).toEqual({
      kind: 'ok',
      target: { ...here, priority: 2 },
    });
    expect(resolveContinueTarget(dialplan, here, { extension: '100' })).toEqual({
      kind: 'ok',
      target: { context: 'stasis-ivr', exten: '100', priority: 1 },
    });
    expect(resolveContinueTarget(dialplan, here, { context: 'default' })).toEqual({
      kind: 'ok',
      target: { context: 'default', exten: 's', priority: 1 },
    });
  });

  it('accepts a missing context (the channel goes there and hangs up)', () => {
    expect(
      resolveContinueTarget(dialplan, here, { context: 'nosuchcontext', extension: 's', priority: 1 }),
    ).toEqual({
      kind: 'ok',
      target: { context: 'nosuchcontext', exten: 's', priority: 1 },
    });
  });

  it('treats a numeric label as a priority', () => {
    expect(
      resolveContinueTarget(dialplan, here, { context: 'default', extension: '100', label: '3' }),
    ).toMatchObject({
      target: { priority: 3 },
    });
  });
});
