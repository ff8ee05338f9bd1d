import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';
import { type DevConsole, startDevConsole } from './startDevConsole.ts';
import { readFeed } from './test-support/readFeed.ts';

const FLOW = `name: hello
start: greet
states:
  greet:
    steps:
      - answer
      - hangup: { reason: normal }
    final: true
`;

describe('startDevConsole', () => {
  let dir: string;
  let dev: DevConsole;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-dev-'));
    await writeFile(join(dir, 'hello.yaml'), FLOW);
    dev = await startDevConsole({ files: [join(dir, 'hello.yaml')], port: 0 });
  });
  afterAll(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page and the flows, with step places', async () => {
    expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(dev.url)).text()).toContain('<title>ringflow dev</title>');
    const [flow] = (await (await fetch(`${dev.url}api/flows`)).json()) as {
      name: string;
      states: Record<string, { at: string }[]>;
    }[];
    expect(flow?.name).toBe('hello');
    expect(flow?.states.greet?.[0]?.at).toMatch(/hello\.yaml:6:\d+$/);
  });

  it('feeds a placed call: its state, its requests with status, its end', async () => {
    const { id } = (await (
      await fetch(`${dev.url}api/call`, { method: 'POST', body: JSON.stringify({ flow: 'hello' }) })
    ).json()) as { id: string };
    const messages = await readFeed(dev.url, (m) => m.some((x) => x.type === 'ended' && x.call === id));
    expect(messages).toContainEqual({ type: 'state', call: id, state: 'greet' });
    const texts = messages.flatMap((m) =>
      m.type === 'timeline' ? [(m.entry as { text: string }).text] : [],
    );
    expect(texts).toContainEqual(expect.stringMatching(new RegExp(`POST /channels/${id}/answer → 204`)));
    // Its start and end times, and how it ended in a scenario's words (the page's call list).
    expect(messages).toContainEqual({ type: 'call', id, flow: 'hello', at: expect.any(Number) });
    expect(messages).toContainEqual({
      type: 'ended',
      call: id,
      outcome: 'completed, by the flow',
      at: expect.any(Number),
      end: { status: 'completed', by: 'flow' },
    });
  });

  it('lists a dialled far end as ringing until the page answers it', async () => {
    const file = join(dir, 'desk.yaml');
    await writeFile(
      file,
      `name: desk
start: ring
states:
  ring:
    steps:
      - answer
      - dial: { endpoint: PJSIP/operator, timeout: 60s, on: { completed: done, noAnswer: done, busy: done, failed: done } }
  done:
    final: true
`,
    );
    const desk = await startDevConsole({ files: [file], port: 0 });
    try {
      const { id } = (await (
        await fetch(`${desk.url}api/call`, { method: 'POST', body: JSON.stringify({ flow: 'desk' }) })
      ).json()) as { id: string };
      const ringing = await readFeed(desk.url, (m) => m.some((x) => x.type === 'farEnd' && x.ringing));
      const farEnd = ringing.find((x) => x.type === 'farEnd')!;
      // Grouped under the call that dialled it.
      expect(farEnd.call).toBe(id);
      const answered = await fetch(`${desk.url}api/answer`, {
        method: 'POST',
        body: JSON.stringify({ call: farEnd.id }),
      });
      expect(await answered.text()).toBe('{}');
      await readFeed(desk.url, (m) => m.some((x) => x.type === 'farEnd' && x.id === farEnd.id && !x.ringing));
    } finally {
      await desk.stop();
    }
  });

  it('lets the page answer a far end whose endpoint the flow computes as the call runs', async () => {
    const file = join(dir, 'agent.yaml');
    await writeFile(
      file,
      `name: agent
start: ring
states:
  ring:
    steps:
      - answer
      - dial: { endpoint: { expr: "'PJSIP/agent-' + call.caller.number" }, timeout: 60s, on: { completed: done, noAnswer: done, busy: done, failed: sorry } }
  sorry:
    final: true
  done:
    final: true
`,
    );
    const desk = await startDevConsole({ files: [file], port: 0 });
    try {
      await fetch(`${desk.url}api/call`, {
        method: 'POST',
        body: JSON.stringify({ flow: 'agent', from: '42' }),
      });
      const ringing = await readFeed(desk.url, (m) =>
        m.some((x) => (x.type === 'farEnd' && x.ringing) || (x.type === 'state' && x.state === 'sorry')),
      );
      const farEnd = ringing.find((x) => x.type === 'farEnd');
      expect(farEnd?.name).toMatch(/^PJSIP\/agent-42-/);
      const answered = await fetch(`${desk.url}api/answer`, {
        method: 'POST',
        body: JSON.stringify({ call: farEnd!.id }),
      });
      expect(await answered.text()).toBe('{}');
      await readFeed(desk.url, (m) =>
        m.some((x) => x.type === 'farEnd' && x.id === farEnd!.id && x.answered),
      );
      // The person at the far end hangs up: the dial completed.
      await fetch(`${desk.url}api/hangup`, { method: 'POST', body: JSON.stringify({ call: farEnd!.id }) });
      const done = await readFeed(desk.url, (m) => m.some((x) => x.type === 'state' && x.state === 'done'));
      expect(done.some((x) => x.type === 'state' && x.state === 'sorry')).toBe(false);
    } finally {
      await desk.stop();
    }
  });

  it('saves a call (a key, the far end answered then hanging up) as a scenario that replays it and passes', async () => {
    const file = join(dir, 'line.yaml');
    await writeFile(
      file,
      `name: line
start: menu
prompts:
  en:
    hello: sound:hello-world
states:
  menu:
    steps:
      - answer
      - menu: { prompt: hello, timeout: 30s, choices: { "1": operator } }
    after:
      5m: done
  operator:
    steps:
      - dial: { endpoint: PJSIP/operator, timeout: 60s, on: { completed: done, noAnswer: done, busy: done, failed: done } }
  done:
    final: true
`,
    );
    const line = await startDevConsole({ files: [file], port: 0 });
    const post = async (path: string, body: Record<string, string>) => {
      const response = await fetch(`${line.url}api/${path}`, { method: 'POST', body: JSON.stringify(body) });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
      return json;
    };
    try {
      const { id } = (await post('call', { flow: 'line' })) as { id: string };
      await readFeed(line.url, (m) => m.some((x) => x.type === 'state' && x.state === 'menu'));
      const texts = (messages: Record<string, unknown>[]) =>
        messages.flatMap((m) => (m.type === 'timeline' ? [(m.entry as { text: string }).text] : []));
      // The timers the state arms are in the call's timeline.
      expect(texts(await readFeed(line.url, (m) => texts(m).some((t) => t.startsWith('◷'))))).toContain(
        '◷ 5m in menu → done',
      );
      await post('dtmf', { call: id, digits: '1' });
      const ringing = await readFeed(line.url, (m) => m.some((x) => x.type === 'farEnd' && x.ringing));
      const farEnd = String(ringing.find((x) => x.type === 'farEnd')!.id);
      await post('answer', { call: farEnd });
      await readFeed(line.url, (m) => m.some((x) => x.type === 'farEnd' && x.answered));
      await post('hangup', { call: farEnd });
      await readFeed(line.url, (m) => m.some((x) => x.type === 'ended' && x.call === id));
      const saved = (await post('save', { call: id })) as {
        file: string;
        yaml: string;
        replay: { passed: boolean; failure?: { message: string } };
      };
      expect(saved.file).toBe(join(dir, 'line.call-1.test.yaml'));
      expect(saved.replay.failure?.message).toBeUndefined();
      expect(saved.replay.passed).toBe(true);
      const yaml = await readFile(saved.file, 'utf8');
      expect(yaml).toBe(saved.yaml);
      expect(yaml).toMatch(/PJSIP\/operator:\n\s+answerAfter: \d+m?s/);
      expect(yaml).toMatch(/- press: "1"/);
      expect(yaml).toMatch(/- hangupFarEnd: PJSIP\/operator/);
      expect(yaml).toMatch(/states:\n\s+- menu\n\s+- operator\n\s+- done/);
      expect(yaml).toMatch(/operation: channels\.originateWithId/);
      const out: string[] = [];
      const code = await main(['test', saved.file], {
        stdout: (t) => out.push(t),
        stderr: (t) => out.push(t),
      });
      expect(out.join('')).toMatch(/"passed":1,"failed":0/);
      expect(code).toBe(ExitCode.OK);
      // Listed beside its flow, and run from the console with its timeline.
      const listed = (await (await fetch(`${line.url}api/scenarios`)).json()) as {
        file: string;
        scenarios: string[];
      }[];
      expect(listed).toContainEqual(
        expect.objectContaining({
          file: saved.file,
          scenarios: [expect.stringMatching(/^recorded call call-1/)],
        }),
      );
      const run = (await post('scenarios/run', { file: saved.file })) as {
        results: { passed: boolean; timeline: string[] }[];
      };
      expect(run.results.map((r) => r.passed)).toEqual([true]);
      expect(run.results[0]!.timeline.join('\n')).toMatch(/caller presses 1/);
      // A second save of the same call never overwrites the first.
      expect(((await post('save', { call: id })) as { file: string }).file).toBe(
        join(dir, 'line.call-1-2.test.yaml'),
      );
    } finally {
      await line.stop();
    }
  });

  it('calls an extension through the dialplan given, which sends the call into a flow (or not); saved, it replays', async () => {
    const dialplanFile = join(dir, 'extensions.conf');
    await writeFile(
      dialplanFile,
      `[from-callers]
exten => 100,1,NoOp(the front desk)
 same => n,Stasis(hello,desk)
 same => n,Hangup()
exten => 200,1,Playback(beep)
 same => n,Hangup()
`,
    );
    const desk = await startDevConsole({
      files: [join(dir, 'hello.yaml')],
      dialplanFile,
      port: 0,
      sounds: null,
    });
    const post = async (path: string, body: Record<string, string>) =>
      (await (
        await fetch(`${desk.url}api/${path}`, { method: 'POST', body: JSON.stringify(body) })
      ).json()) as Record<string, unknown>;
    try {
      expect(await (await fetch(`${desk.url}api/softphone`)).json()).toEqual({
        dialplan: dialplanFile,
        context: 'from-callers',
        sounds: null,
      });
      const { id } = (await post('call', { extension: '100', from: '555' })) as { id: string };
      const messages = await readFeed(desk.url, (m) => m.some((x) => x.type === 'ended' && x.call === id));
      expect(messages).toContainEqual({ type: 'call', id, flow: 'hello', at: expect.any(Number) });
      expect(messages).toContainEqual({ type: 'state', call: id, state: 'greet' });
      const saved = (await post('save', { call: id })) as {
        yaml: string;
        replay: { passed: boolean; failure?: { message: string } };
      };
      expect(saved.replay.failure?.message).toBeUndefined();
      expect(saved.replay.passed).toBe(true);
      expect(saved.yaml).toMatch(/extension: "100"/);
      expect(saved.yaml).toMatch(/caller: "555"/);
      expect(saved.yaml).toMatch(/args:\n\s+- desk/);
      // An extension whose dialplan takes the call into no flow: the page is told it ended there.
      const beep = (await post('call', { extension: '200' })) as { id: string };
      const ended = await readFeed(desk.url, (m) => m.some((x) => x.type === 'ended' && x.call === beep.id));
      expect(ended).toContainEqual({
        type: 'ended',
        call: beep.id,
        outcome: 'ended in the dialplan',
        at: expect.any(Number),
      });
      expect(ended.some((x) => x.type === 'call' && x.id === beep.id)).toBe(false);
      // Straight into a flow, the extension typed is the number the call dialled.
      const direct = (await post('call', { flow: 'hello', extension: '300' })) as { id: string };
      await readFeed(desk.url, (m) => m.some((x) => x.type === 'ended' && x.call === direct.id));
      expect(((await post('save', { call: direct.id })) as { yaml: string }).yaml).toMatch(
        /extension: "300"/,
      );
    } finally {
      await desk.stop();
    }
  });

  it('ringflow dev --dialplan: a dialplan that cannot be read or has errors stops it with the reason (exit 1)', async () => {
    const broken = join(dir, 'broken.conf');
    await writeFile(broken, '[from-callers]\nexten => 100\n');
    for (const [file, reason] of [
      [join(dir, 'missing.conf'), /Cannot read the dialplan file/],
      [broken, /broken\.conf:2:\d+/],
    ] as const) {
      const err: string[] = [];
      const code = await main(['dev', join(dir, 'hello.yaml'), '--port', '0', '--dialplan', file], {
        stdout: (t) => err.push(t),
        stderr: (t) => err.push(t),
        // Bounded: a console that started anyway stops after 5 s (and the test fails on its exit code).
        waitForStop: () => new Promise((resolve) => setTimeout(() => resolve('SIGTERM'), 5_000)),
      });
      expect(code, err.join('')).toBe(ExitCode.FAILURE);
      expect(err.join('')).toMatch(reason);
    }
  });

  it('ringflow dev --sounds: a folder that is not there stops it with the reason (exit 1)', async () => {
    const err: string[] = [];
    const code = await main(['dev', join(dir, 'hello.yaml'), '--port', '0', '--sounds', join(dir, 'none')], {
      stdout: (t) => err.push(t),
      stderr: (t) => err.push(t),
      waitForStop: () => new Promise((resolve) => setTimeout(() => resolve('SIGTERM'), 5_000)),
    });
    expect(code, err.join('')).toBe(ExitCode.FAILURE);
    expect(err.join('')).toMatch(/--sounds .*none: no such folder/);
  });

  it('a port in use stops it with the reason (exit 1)', async () => {
    const err: string[] = [];
    const port = new URL(dev.url).port;
    const code = await main(['dev', join(dir, 'hello.yaml'), '--port', port], {
      stdout: (t) => err.push(t),
      stderr: (t) => err.push(t),
      waitForStop: () => new Promise((resolve) => setTimeout(() => resolve('SIGTERM'), 5_000)),
    });
    expect(code, err.join('')).toBe(ExitCode.FAILURE);
    expect(err.join('')).toMatch(/EADDRINUSE/);
  });

  it('answers bad requests with a clear error', async () => {
    const response = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'nope' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'no flow named "nope"' });
    const save = await fetch(`${dev.url}api/save`, {
      method: 'POST',
      body: JSON.stringify({ call: 'nope' }),
    });
    expect(save.status).toBe(400);
    expect(await save.json()).toEqual({ error: 'no call "nope" was seen by this console' });
    const missing = await fetch(`${dev.url}api/save`, { method: 'POST', body: '{}' });
    expect(await missing.json()).toEqual({ error: 'missing field "call"' });
    const run = await fetch(`${dev.url}api/scenarios/run`, {
      method: 'POST',
      body: JSON.stringify({ file: '/etc/passwd' }),
    });
    expect(run.status).toBe(400);
    expect(((await run.json()) as { error: string }).error).toMatch(/is not a scenario file of these flows/);
    // Extensions go through a dialplan, which this console has none of.
    const extension = await fetch(`${dev.url}api/call`, {
      method: 'POST',
      body: JSON.stringify({ extension: '100' }),
    });
    expect(await extension.json()).toEqual({
      error:
        'no dialplan: give a flow, or start ringflow dev with --dialplan extensions.conf to call extensions',
    });
    await expect(startDevConsole({ files: [] })).rejects.toThrow(/give at least one flow file/);
  });
});
