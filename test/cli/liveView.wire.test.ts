import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../packages/cli/src/ExitCode.ts';
import { readFeed } from '../../packages/cli/src/dev/test-support/readFeed.ts';
import { main } from '../../packages/cli/src/main.ts';

const FLOW = `name: desk
start: greet
prompts:
  en:
    hello: sound:hello-world
vars:
  tries: 0
states:
  greet:
    steps:
      - answer
      - set: { tries: 1 }
      - userEvent: { name: Greeted }
      - dial: { endpoint: PJSIP/nobody, timeout: 5s, on: { completed: done, noAnswer: done, busy: done, failed: sorry } }
  sorry:
    steps:
      - play: { prompt: hello }
    after:
      5m: done
  done:
    final: true
`;

const LINE = `name: line
start: menu
inputs:
  operator:
    type: string
    default: PJSIP/nobody
prompts:
  en:
    hello: sound:hello-world
states:
  menu:
    steps:
      - answer
      - menu: { prompt: hello, timeout: 30s, choices: { "1": operator, "2": quick } }
    after:
      5m: done
  quick:
    steps:
      - dial: { endpoint: { expr: "input.operator" }, timeout: 1s, on: { completed: done, noAnswer: nobody, busy: done, failed: done } }
  nobody:
    final: true
  operator:
    steps:
      - dial: { endpoint: { expr: "input.operator" }, timeout: 60s, on: { completed: done, noAnswer: done, busy: done, failed: done } }
  done:
    final: true
`;

const OPS = `Basic ${Buffer.from('ops:secret').toString('base64')}`;
const DRIVER = `Basic ${Buffer.from('u:p').toString('base64')}`;

/** Reads the live view's feed, behind the ops server's Basic auth. */
const readLiveFeed = (view: string, done: (messages: Record<string, unknown>[]) => boolean) =>
  readFeed(view, done, { authorization: OPS });

const lines = (messages: Record<string, unknown>[], call: string) =>
  messages.flatMap((m) => {
    const entry = m.entry as { call: string; kind: string; text: string } | undefined;
    return m.type === 'timeline' && entry?.call === call ? [`${entry.kind} ${entry.text}`] : [];
  });

/** `ringflow run --http`'s read-only live view, over real sockets, behind the ops server's Basic auth. */
describe('the live view of ringflow run --http', () => {
  it('shows a call in progress: its state, its timeline (events, variables, user events, failures with their cause), its end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-live-'));
    const flowFile = join(dir, 'desk.yaml');
    await writeFile(flowFile, FLOW);
    const simulator = createSimulator({ clock: systemClock });
    const wire = await startWireServer(simulator, {
      users: [{ username: 'u', password: 'p' }],
      driver: simulator.driver,
    });
    const err: string[] = [];
    let stop: (signal: string) => void = () => {};
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    const run = main(
      [
        'run',
        flowFile,
        '--server',
        wire.url,
        '--user',
        'u',
        '--password',
        'p',
        '--app',
        'desk-app',
        '--http',
        '127.0.0.1:0',
        '--http-user',
        'ops',
        '--http-password',
        'secret',
        '--drain',
        '1s',
      ],
      { stdout: (t) => err.push(t), stderr: (t) => err.push(t), waitForStop: () => stopped },
    );
    try {
      const view = await until(
        'the live view URL',
        () => /live view of the calls on (http:\/\/127\.0\.0\.1:\d+\/console\/)/.exec(err.join(''))?.[1],
        { timeoutMs: 10_000 },
      );
      // Behind the same Basic auth as /metrics.
      expect((await fetch(view)).status).toBe(401);
      const page = await fetch(view, { headers: { authorization: OPS } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<body data-mode="live">');
      expect(html).not.toMatch(/src="http|href="http/); // nothing from elsewhere
      const bare = await fetch(view.replace(/\/$/, ''), {
        headers: { authorization: OPS },
        redirect: 'manual',
      });
      expect(bare.status).toBe(308);
      expect(bare.headers.get('location')).toBe('/console/');
      const flows = (await (await fetch(`${view}api/flows`, { headers: { authorization: OPS } })).json()) as {
        name: string;
        graph: { states: string[] };
      }[];
      expect(flows.map((f) => f.name)).toEqual(['desk']);
      expect(flows[0]!.graph.states).toEqual(expect.arrayContaining(['greet', 'sorry', 'done']));
      // Nothing in it acts on calls.
      const post = await fetch(`${view}api/call`, {
        method: 'POST',
        headers: { authorization: OPS },
        body: JSON.stringify({ flow: 'desk' }),
      });
      expect(post.status).toBe(404);
      await post.text();

      // A call placed on the server (through the simulator's driver API, as a phone would).
      await until('the application', () => /application started/.test(err.join('')), { timeoutMs: 10_000 });
      const placed = await fetch(`${wire.url.replace(/\/ari$/, '')}/ringflow/driver/calls`, {
        method: 'POST',
        headers: { authorization: DRIVER, 'content-type': 'application/json' },
        body: JSON.stringify({ app: 'desk-app', from: '5551234' }),
      });
      expect(placed.status).toBe(201);
      const { id } = (await placed.json()) as { id: string };
      const inSorry = await readLiveFeed(view, (m) =>
        m.some((x) => x.type === 'state' && x.call === id && x.state === 'sorry'),
      );
      expect(inSorry).toContainEqual(expect.objectContaining({ type: 'call', id, flow: 'desk' }));
      const timeline = lines(inSorry, id);
      expect(timeline).toContain('state ◆ greet');
      // The session starts on StasisStart: the events after it are in the timeline.
      expect(timeline).toContain('event ChannelStateChange');
      expect(timeline).toContain('vars tries = 0');
      expect(timeline).toContain('vars tries = 1');
      expect(timeline).toContainEqual(expect.stringMatching(/^userEvent ✉ user event Greeted/));
      expect(timeline).toContainEqual(
        expect.stringMatching(
          /^failure ✗ dial failed \(greet, step 4, .*desk\.yaml:\d+:\d+\): .*500.*→ .*sorry/,
        ),
      );
      expect(timeline).toContain('timer ◷ 5m in sorry → done');

      await fetch(`${wire.url.replace(/\/ari$/, '')}/ringflow/driver/calls/${id}`, {
        method: 'DELETE',
        headers: { authorization: DRIVER },
      });
      const ended = await readLiveFeed(view, (m) => m.some((x) => x.type === 'ended' && x.call === id));
      expect(lines(ended, id)).toContainEqual(expect.stringMatching(/^end ■ call ended/));
    } catch (error) {
      throw new Error(`${(error as Error).message}\nringflow run said:\n${err.join('')}`, { cause: error });
    } finally {
      stop('SIGTERM');
      // Bounded: a run that does not stop fails the test rather than hanging it.
      const code = await Promise.race([
        run,
        new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000)),
      ]);
      expect(code, err.join('')).toBe(ExitCode.OK);
      await wire.close();
      simulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a call seen by the live view becomes a test', () => {
  let dir: string;
  let simulator: ReturnType<typeof createSimulator>;
  let wire: Awaited<ReturnType<typeof startWireServer>>;
  let view: string;
  const said: string[] = [];
  let stop: (signal: string) => void = () => {};
  let run: Promise<number>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringflow-live-'));
    await writeFile(join(dir, 'line.yaml'), LINE);
    // The far end rings until it is answered over the driver API, as a person would.
    simulator = createSimulator({
      clock: systemClock,
      endpoints: ['PJSIP/operator'],
      answerOutboundAfterMs: null,
    });
    wire = await startWireServer(simulator, {
      users: [{ username: 'u', password: 'p' }],
      driver: simulator.driver,
    });
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    run = main(
      [
        'run',
        join(dir, 'line.yaml'),
        '--server',
        wire.url,
        '--user',
        'u',
        '--password',
        'p',
        '--app',
        'line-app',
        // The operator the flow dials is given at run time: a saved call replays with it.
        '--input',
        'operator=PJSIP/operator',
        '--http',
        '127.0.0.1:0',
        '--http-user',
        'ops',
        '--http-password',
        'secret',
        '--drain',
        '1s',
      ],
      { stdout: (t) => said.push(t), stderr: (t) => said.push(t), waitForStop: () => stopped },
    );
    view = await until(
      'the live view URL',
      () => /live view of the calls on (http:\/\/127\.0\.0\.1:\d+\/console\/)/.exec(said.join(''))?.[1],
      { timeoutMs: 10_000 },
    );
    await until('the application', () => /application started/.test(said.join('')), { timeoutMs: 10_000 });
  });
  afterAll(async () => {
    stop('SIGTERM');
    // Bounded: a run that does not stop fails the test rather than hanging it.
    const code = await Promise.race([
      run,
      new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000)),
    ]);
    await wire?.close();
    simulator?.close();
    await rm(dir, { recursive: true, force: true });
    expect(code, said.join('')).toBe(ExitCode.OK);
  });

  /** The simulator's driver API, as phones (and the people at them) use it. */
  const drive = async (method: string, path: string, body?: Record<string, unknown>) => {
    const response = await fetch(`${wire.url.replace(/\/ari$/, '')}/ringflow/driver${path}`, {
      method,
      headers: { authorization: DRIVER, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  };
  /** Places a call from `from`, waits for the menu, presses `key`, waits for `state`. */
  const callAndPress = async (from: string, key: string, state: string) => {
    const { id } = (await drive('POST', '/calls', { app: 'line-app', from })) as { id: string };
    await readLiveFeed(view, (m) => m.some((x) => x.type === 'state' && x.call === id && x.state === 'menu'));
    await drive('POST', `/calls/${id}/dtmf`, { digits: key });
    await readLiveFeed(view, (m) => m.some((x) => x.type === 'state' && x.call === id && x.state === state));
    return id;
  };
  /** The far end a call's flow dialled, found as an operator would: on the server. */
  const farEndOf = (id: string, known: readonly string[] = []) =>
    until(
      'the dialled far end',
      async () => {
        const channels = (await (
          await fetch(`${wire.url}/channels`, { headers: { authorization: DRIVER } })
        ).json()) as {
          id: string;
        }[];
        return channels.find((c) => c.id !== id && !known.includes(c.id))?.id;
      },
      { timeoutMs: 10_000 },
    );
  /** Saves the call as the live page does, checks the replay passed, and runs ringflow test on it. */
  const saveAndTest = async (id: string) => {
    const asked = await fetch(`${view}api/calls/${id}/scenario`, { headers: { authorization: OPS } });
    const saved = (await asked.json()) as {
      fileName: string;
      yaml: string;
      replay: { passed: boolean; failure?: { message: string } };
    };
    expect(asked.status, JSON.stringify(saved)).toBe(200);
    expect(saved.replay.failure?.message).toBeUndefined();
    expect(saved.replay.passed).toBe(true);
    const kept = join(dir, saved.fileName);
    await writeFile(kept, saved.yaml);
    const out: string[] = [];
    const code = await main(['test', kept], { stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
    expect(out.join('')).toMatch(/"passed":1,"failed":0/);
    expect(code).toBe(ExitCode.OK);
    return saved;
  };

  it('rebuilds the caller and the far end from the server events, as a downloadable scenario that ringflow test passes', async () => {
    try {
      const id = await callAndPress('5551234', '1', 'operator');
      const farEnd = await farEndOf(id);
      await drive('POST', `/calls/${farEnd}/answer`);
      await readLiveFeed(view, (m) =>
        lines(m, id).some((l) => l.startsWith('event ChannelStateChange') && l.includes(farEnd)),
      );
      await drive('DELETE', `/calls/${farEnd}`);
      await readLiveFeed(view, (m) => m.some((x) => x.type === 'ended' && x.call === id));

      // Behind the view's Basic auth, like the rest of it.
      expect((await fetch(`${view}api/calls/${id}/scenario`)).status).toBe(401);
      const saved = await saveAndTest(id);
      expect(saved.fileName).toBe(`line.${id}.test.yaml`);
      expect(saved.yaml).toMatch(/^# Recorded by ringflow run --http from the call/);
      expect(saved.yaml).toMatch(/^flow: line\.yaml$/m);
      expect(saved.yaml).toMatch(/caller: "?5551234"?/);
      expect(saved.yaml).toMatch(/inputs:\n\s+operator: PJSIP\/operator\n/);
      expect(saved.yaml).toMatch(/PJSIP\/operator:\n\s+answerAfter: \d+m?s/);
      expect(saved.yaml).toMatch(/- press: "1"/);
      expect(saved.yaml).toMatch(/- hangupFarEnd: PJSIP\/operator/);
      expect(saved.yaml).toMatch(/states:\n\s+- menu\n\s+- operator\n\s+- done/);
      // The same file as a download; nothing was written on the server's side.
      const download = await fetch(`${view}api/calls/${id}/scenario.yaml`, {
        headers: { authorization: OPS },
      });
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="line.${id}.test.yaml"`);
      expect(await download.text()).toBe(saved.yaml);
      expect((await readdir(dir)).sort()).toEqual(['line.yaml', saved.fileName].sort());
      const unknown = await fetch(`${view}api/calls/nope/scenario`, { headers: { authorization: OPS } });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: 'no call "nope" was seen by this live view' });
    } catch (error) {
      throw new Error(`${(error as Error).message}\nringflow run said:\n${said.join('')}`, { cause: error });
    }
  });

  it('tells a far end that refused (and how) from one that rang until the server gave up', async () => {
    try {
      // The person at the far end rejects the call (cause 21): a scenario far end that rejects.
      const refused = await callAndPress('5550001', '1', 'operator');
      const farEnd = await farEndOf(refused);
      await drive('POST', `/calls/${farEnd}/reject`, { cause: 21 });
      await readLiveFeed(view, (m) =>
        m.some((x) => x.type === 'state' && x.call === refused && x.state === 'done'),
      );
      await readLiveFeed(view, (m) => m.some((x) => x.type === 'ended' && x.call === refused));
      const rejected = await saveAndTest(refused);
      expect(rejected.yaml).toMatch(/farEnds:\n\s+PJSIP\/operator: reject\n/);
      expect(rejected.yaml).not.toMatch(/hangupFarEnd/);

      // Nobody answers: the server's originate times out (its hang-up is no one's refusal).
      const unanswered = await callAndPress('5550002', '2', 'quick');
      await readLiveFeed(view, (m) =>
        m.some((x) => x.type === 'state' && x.call === unanswered && x.state === 'nobody'),
      );
      await readLiveFeed(view, (m) => m.some((x) => x.type === 'ended' && x.call === unanswered));
      const noAnswer = await saveAndTest(unanswered);
      expect(noAnswer.yaml).toMatch(/farEnds:\n\s+PJSIP\/operator: noAnswer\n/);
      expect(noAnswer.yaml).toMatch(/states:\n\s+- menu\n\s+- quick\n\s+- nobody/);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nringflow run said:\n${said.join('')}`, { cause: error });
    }
  });
});
