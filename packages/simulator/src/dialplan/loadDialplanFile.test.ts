import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RingflowError } from '@ringflow/client';
import type { ResolvedLocation } from './Dialplan.ts';
import type { StasisExit } from './DialplanHost.ts';
import { DialplanSyntaxError } from './DialplanSyntaxError.ts';
import { findPriority } from './findPriority.ts';
import { loadDefaultDialplan, loadDialplanFile } from './loadDialplanFile.ts';
import { type ContinueRequest, resolveContinueTarget } from './resolveContinueTarget.ts';
import { runDialplan } from './runDialplan.ts';
import { FakeDialplanHost } from './testing/FakeDialplanHost.ts';

describe('the default dialplan', () => {
  const dialplan = loadDefaultDialplan();

  it('parses without warnings and has the demo and the recorded-trace contexts', () => {
    expect(dialplan.warnings).toEqual([]);
    expect([...dialplan.contexts.keys()].sort()).toEqual([
      'default',
      'from-callers',
      'from-callers-cluster',
      'ivr-exits',
      'stasis-ivr',
    ]);
    expect(dialplan.globals.get('DEMO_APP')).toBe('ringflow-demo');
  });

  it('is parsed once and shared', () => {
    expect(loadDefaultDialplan()).toBe(dialplan);
  });

  it('sends any dialled number from from-callers into Stasis(ringflow-demo) with the number', async () => {
    const host = new FakeDialplanHost(dialplan);
    await runDialplan(host, { context: 'from-callers', exten: '5551234', priority: 1 }, { newChannel: true });
    expect(host.steps()).toEqual([
      'from-callers,5551234,1 NoOp(Call from 1000 to 5551234)',
      'from-callers,5551234,2 Stasis(ringflow-demo,5551234)',
    ]);
    expect(host.calls).toContainEqual({ op: 'stasis', app: 'ringflow-demo', args: ['5551234'] });
  });

  it('offers labelled exits in ivr-exits that play something and hang up', async () => {
    for (const label of ['goodbye', 'operator', 'busy', 'back-to-app']) {
      expect(findPriority(dialplan, 'ivr-exits', 's', label).kind).toBe('found');
    }
    const host = new FakeDialplanHost(dialplan, { answered: true });
    const end = await runDialplan(host, { context: 'ivr-exits', exten: 's', priority: 'operator' });
    expect(host.steps()).toEqual([
      'ivr-exits,s,4 Playback(transfer&pls-hold-while-try)',
      'ivr-exits,s,5 Wait(1)',
      'ivr-exits,s,6 Hangup()',
    ]);
    expect(end).toMatchObject({ reason: 'hangup-application', cause: 16 });
    const busy = new FakeDialplanHost(dialplan, { answered: true });
    expect(await runDialplan(busy, { context: 'ivr-exits', exten: 's', priority: 'busy' })).toMatchObject({
      cause: 17,
    });
  });
});

describe('the default dialplan replays the recorded ChannelDialplan events', () => {
  const dialplan = loadDefaultDialplan();
  type Recorded = { context: string; exten: string; priority: number; app_name: string; app_data: string };
  const recorded = new Map<string, Recorded[]>();
  const fixture = readFileSync(new URL('./fixtures/channel-dialplan-events.jsonl', import.meta.url), 'utf8');
  for (const line of fixture.trim().split('\n')) {
    const { event } = JSON.parse(line) as { event: { channel: { id: string; dialplan: Recorded } } };
    const list = recorded.get(event.channel.id) ?? [];
    list.push(event.channel.dialplan);
    recorded.set(event.channel.id, list);
  }

  const continueFrom = (current: ResolvedLocation, request: ContinueRequest): StasisExit => {
    const resolution = resolveContinueTarget(dialplan, current, request);
    if (resolution.kind !== 'ok') throw new Error(`continue ${JSON.stringify(request)} refused`);
    return { kind: 'continue', target: resolution.target };
  };
  const inStasisIvr = { context: 'stasis-ivr', exten: 's', priority: 1 };
  const atBack = { context: 'default', exten: '100', priority: 3 };
  const start = (request: ContinueRequest) => {
    const resolution = resolveContinueTarget(dialplan, inStasisIvr, request);
    if (resolution.kind !== 'ok') throw new Error('bad start');
    return resolution.target;
  };

  // Each channel: where it entered the dialplan and how its ARI application let it continue.
  const channels: Record<string, { start: ResolvedLocation; stasis?: StasisExit[] }> = {
    'oracle-b': { start: inStasisIvr },
    'oracle-d': { start: inStasisIvr },
    'oracle-c': {
      start: start({ context: 'default', extension: '100', label: 'menu' }),
      stasis: [
        continueFrom(atBack, { context: 'default', extension: '100', label: 'back', priority: 2 }),
        continueFrom(atBack, { context: 'default', extension: '100', label: 'menu' }),
        continueFrom(atBack, { context: 'nosuchcontext', extension: 's', priority: 1 }),
      ],
    },
    'oracle-c2': { start: start({ context: 'default', extension: '101', label: 'menu' }) },
    'oracle-c3': {
      start: start({}),
      stasis: [
        continueFrom({ ...inStasisIvr, priority: 2 }, { context: 'default', extension: '101', priority: 1 }),
      ],
    },
    'oracle-ue': { start: { context: 'default', exten: '300', priority: 1 } },
    'oracle-ue2': { start: { context: 'stasis-ivr', exten: 'wait', priority: 1 } },
  };

  it.each(Object.keys(channels))('%s', async (id) => {
    const { start: from, stasis } = channels[id]!;
    const host = new FakeDialplanHost(dialplan, stasis ? { stasis } : {});
    await runDialplan(host, from);
    const steps = host.calls.flatMap((c) =>
      c.op === 'location' && c.step.app !== undefined
        ? [
            {
              context: c.step.context,
              exten: c.step.exten,
              priority: c.step.priority,
              app_name: c.step.app,
              app_data: c.step.appData,
            },
          ]
        : [],
    );
    // A snapshot that does not change raises no event: drop repeats (continue to the same priority).
    const events = steps.filter((s, i) => i === 0 || JSON.stringify(s) !== JSON.stringify(steps[i - 1]));
    expect(events).toEqual(recorded.get(id));
  });
});

describe('loadDialplanFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringflow-dialplan-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file and its #include files relative to it', () => {
    writeFileSync(join(dir, 'extensions.conf'), '[main]\nexten => 1,1,NoOp()\n#include "more.conf"\n');
    writeFileSync(join(dir, 'more.conf'), 'exten => 2,1,NoOp(included)\n[other]\nexten => s,1,Hangup()\n');
    const dialplan = loadDialplanFile(join(dir, 'extensions.conf'));
    expect(dialplan.contexts.get('main')?.extensions.map((e) => e.name)).toEqual(['1', '2']);
    expect(dialplan.contexts.get('main')?.extensions[1]?.position.file).toBe(join(dir, 'more.conf'));
    expect(dialplan.contexts.has('other')).toBe(true);
  });

  it('reports a missing include, an include loop and syntax errors with the right file', () => {
    writeFileSync(
      join(dir, 'loop.conf'),
      '[c]\n#include loop.conf\n#include missing.conf\n#tryinclude missing.conf\nexten => 1\n',
    );
    let error: unknown;
    try {
      loadDialplanFile(join(dir, 'loop.conf'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DialplanSyntaxError);
    const issues = (error as DialplanSyntaxError).issues;
    expect(issues.map((i) => i.position.line)).toEqual([2, 3, 5]);
    expect(issues[0]?.message).toMatch(/#include "loop\.conf" includes itself/);
    expect(issues[1]?.message).toMatch(/#include "missing\.conf": file not found/);
    expect(issues[2]?.message).toMatch(/expected "exten => extension,priority,Application\(args\)"/);
    expect(issues[2]?.position.file).toBe(join(dir, 'loop.conf'));
  });

  it('says which path it could not read', () => {
    expect(() => loadDialplanFile(join(dir, 'nope.conf'))).toThrow(RingflowError);
    expect(() => loadDialplanFile(join(dir, 'nope.conf'))).toThrow(
      /Cannot read the dialplan file ".*nope\.conf".*--dialplan/,
    );
  });
});
