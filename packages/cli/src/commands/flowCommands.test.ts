import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { until } from '@ringflow/testing';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';
import { createRunCommand } from './runCommand.ts';
import { captureIo } from '../test-support/captureIo.ts';

const FLOWS = new URL('../../../../flows/', import.meta.url).pathname;
const IVR = join(FLOWS, 'ivr.yaml');

async function broken(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
  const file = join(dir, 'broken.yaml');
  await writeFile(
    file,
    'name: broken\nstart: greet\nstates:\n  greet:\n    steps:\n      - plya: { media: sound:hello }\n    next: nowhere\n',
  );
  return file;
}

describe('ringflow validate', () => {
  it('prints file:line:col code message for each problem and exits 1 on errors', async () => {
    const file = await broken();
    const c = captureIo();
    expect(await main(['validate', IVR, file], c.io)).toBe(ExitCode.FAILURE);
    const lines = c.out().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^${file}:4:3 warning RF202 no-hangup-path: `)),
      `${file}:6:9 error RF101 unknown-step: Unknown step "plya". Did you mean "play"?`,
      expect.stringMatching(new RegExp(`^${file}:7:11 error RF200 unknown-target: .*nowhere`)),
    ]);
    expect(c.err()).toBe('2 files checked: 2 errors, 1 warning\n');
  });

  it('exits 0 for a valid flow, prints JSON lines with --format json, and 2 without a file', async () => {
    const ok = captureIo();
    expect(await main(['validate', IVR], ok.io)).toBe(ExitCode.OK);
    expect(ok.out()).toBe('');
    const json = captureIo();
    await main(['validate', '--format', 'json', await broken()], json.io);
    expect(JSON.parse(json.out().split('\n')[1]!)).toMatchObject({
      line: 6,
      column: 9,
      code: 'RF101',
      severity: 'error',
    });
    const wrongFormat = captureIo();
    expect(await main(['validate', '--format', 'xml', IVR], wrongFormat.io)).toBe(ExitCode.USAGE);
    const missing = captureIo();
    expect(await main(['validate', 'bad/nope.yaml'], missing.io)).toBe(ExitCode.FAILURE);
    expect(missing.err()).toContain('ringflow validate: cannot read bad/nope.yaml: no such file\n');
  });

  it('takes folders and globs, and checks *.test.yaml as scenario files with their flow', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    await writeFile(join(dir, 'ivr.yaml'), await readFile(IVR, 'utf8'));
    await writeFile(
      join(dir, 'ivr.test.yaml'),
      'scenarios:\n  - name: s\n    steps:\n      - pres: "1"\n      - expect: { visited: [nowhere] }\n',
    );
    await writeFile(join(dir, 'notes.txt'), 'not a flow');
    for (const paths of [[dir], [join(dir, '*.yaml')], [join(dir, '**', '*.y?ml')]]) {
      const c = captureIo();
      expect(await main(['validate', ...paths], c.io)).toBe(ExitCode.FAILURE);
      expect(c.out()).toMatch(
        /ivr\.test\.yaml:4:9 error RF101 unknown-step: Unknown step "pres"\. Did you mean "press"\?/,
      );
      expect(c.out()).toMatch(/ivr\.test\.yaml:5:29 error RF200 unknown-target: unknown state "nowhere"/);
      expect(c.out()).not.toContain('Missing required field "states"');
      expect(c.err()).toMatch(/^2 files checked: 2 errors, 0 warnings\n$/);
    }
    const none = captureIo();
    expect(await main(['validate', join(dir, '*.json')], none.io)).toBe(ExitCode.FAILURE);
    expect(none.err()).toContain(`cannot read ${join(dir, '*.json')}: no such file`);
    // The help's examples work as written (from the repository root, where they are meant).
    const help = captureIo();
    await main(['validate', '--help'], help.io);
    const root = new URL('../../../../', import.meta.url).pathname;
    const examples = [...help.out().matchAll(/^ {2}ringflow validate (.+)$/gm)];
    // Every flow and scenario file shipped in flows/ (its examples check them all).
    const shippedFlowFiles = readdirSync(join(root, 'flows')).filter((f) => /\.ya?ml$/.test(f)).length;
    expect(examples.length, 'the help shows examples').toBeGreaterThan(0);
    for (const example of examples) {
      const args = example[1]!
        .split(' > ')[0]!
        .split(' ')
        .map((a) => a.replace(/^'|'$/g, ''))
        .map((a) => (a.includes('/') ? join(root, a) : a));
      const c = captureIo();
      expect(await main(['validate', ...args], c.io), example[0]).toBe(ExitCode.OK);
      expect(c.err(), example[0]).toBe(`${shippedFlowFiles} files checked: 0 errors, 0 warnings\n`);
    }
  });

  it('--format sarif prints one SARIF 2.1.0 log with a rule per code and a result per problem', async () => {
    const file = await broken();
    const c = captureIo();
    expect(await main(['validate', '--format', 'sarif', file], c.io)).toBe(ExitCode.FAILURE);
    const log = JSON.parse(c.out()) as {
      version: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string }[] } };
        results: Record<string, unknown>[];
      }[];
    };
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('ringflow');
    expect(run.tool.driver.rules.map((r) => r.id)).toContain('RF101');
    expect(run.results).toContainEqual(
      expect.objectContaining({
        ruleId: 'RF101',
        level: 'error',
        message: { text: 'Unknown step "plya". Did you mean "play"?' },
        locations: [
          expect.objectContaining({
            physicalLocation: {
              artifactLocation: { uri: expect.stringMatching(/broken\.yaml$/) },
              region: { startLine: 6, startColumn: 9 },
            },
          }),
        ],
      }),
    );
  });
});

describe('ringflow validate <folder>', () => {
  it('checks every flow and scenario file of the folder and its subfolders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    await mkdir(join(dir, 'more'));
    await writeFile(join(dir, 'ok.yaml'), await readFile(IVR, 'utf8'));
    await writeFile(join(dir, 'ok.test.yaml'), 'scenarios: []\n');
    await writeFile(join(dir, 'more', 'broken.yml'), await readFile(await broken(), 'utf8'));
    const c = captureIo();
    expect(await main(['validate', dir], c.io)).toBe(ExitCode.FAILURE);
    expect(c.out()).toContain(`${join(dir, 'more', 'broken.yml')}:6:9 error RF101`);
    expect(c.out()).not.toContain('ok.yaml:');
    // The scenario file is checked as one: an empty list of scenarios is an error.
    expect(c.out()).toContain(`${join(dir, 'ok.test.yaml')}:1:12 error`);
    expect(c.err()).toBe('3 files checked: 3 errors, 1 warning\n');
  });

  it('fails when a folder holds no flow', async () => {
    const c = captureIo();
    expect(await main(['validate', await mkdtemp(join(tmpdir(), 'ringflow-cli-'))], c.io)).toBe(
      ExitCode.FAILURE,
    );
    expect(c.err()).toContain('no .yaml file under');
  });
});

describe('ringflow graph', () => {
  it('prints the flow as a Mermaid state diagram', async () => {
    const c = captureIo();
    expect(await main(['graph', IVR], c.io)).toBe(ExitCode.OK);
    expect(c.out()).toMatch(/^stateDiagram-v2\n {2}\[\*\] --> greet\n/);
    expect(c.out()).toContain('main_menu --> sales_menu : menu 1');
  });

  it('refuses svg with the reason and a way to get one, and reports a broken flow', async () => {
    const svg = captureIo();
    expect(await main(['graph', IVR, '--format', 'svg'], svg.io)).toBe(ExitCode.USAGE);
    expect(svg.err()).toContain('svg is not supported: rendering Mermaid needs a browser');
    const bad = captureIo();
    expect(await main(['graph', await broken()], bad.io)).toBe(ExitCode.FAILURE);
    expect(bad.err()).toMatch(/broken\.yaml:6:9 error RF101/);
  });
});

describe('ringflow test', () => {
  it('reports scenario inputs the flow does not declare, or of the wrong type, at their line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    await writeFile(join(dir, 'outbound.yaml'), await readFile(join(FLOWS, 'outbound.yaml'), 'utf8'));
    await writeFile(
      join(dir, 'outbound.test.yaml'),
      'inputs: { maxAttempts: many, nmber: PJSIP/x }\nscenarios:\n  - name: one\n    steps: [{ wait: 1s }]\n',
    );
    const c = captureIo({ isTerminal: true });
    expect(await main(['test', dir], c.io)).toBe(ExitCode.FAILURE);
    expect(c.out()).toContain(
      'outbound.test.yaml:1:24 error RF102 wrong-type: input "maxAttempts" is declared number: expected a number, got the text "many"',
    );
    expect(c.out()).toContain(
      'outbound.test.yaml:1:30 error RF206 unknown-input: the flow has no input "nmber". Did you mean "number"?',
    );
  });

  it('runs the scenarios under a folder and ends with "N passed, M failed"', async () => {
    const c = captureIo({ isTerminal: true });
    expect(await main(['test', FLOWS, '--coverage'], c.io)).toBe(ExitCode.OK);
    expect(c.out()).toContain('✓ sales sub-menu, then a voicemail message');
    expect(c.out()).toMatch(/coverage of flow main-ivr: states \d+\/11 \(\d+%\), transitions \d+\/16/);
    expect(c.out()).toMatch(/ {4}main-menu -> sales-menu {2}x\d+ {2}\(menu 1\)/);
    // Every scenario file under flows/ runs: the count is the sum of their scenarios.
    const scenarioCounts = [...c.out().matchAll(/\.test\.yaml \((\d+) scenarios?\)/g)].map((m) =>
      Number(m[1]),
    );
    expect(scenarioCounts.length).toBeGreaterThanOrEqual(1);
    const total = scenarioCounts.reduce((a, b) => a + b, 0);
    expect(c.out()).toMatch(new RegExp(`\\n${total} passed, 0 failed\\n$`));
  });

  it('reports a failing scenario with its place and the timeline, as JSON lines off a terminal', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    await writeFile(join(dir, 'ivr.yaml'), await readFile(IVR, 'utf8'));
    await writeFile(
      join(dir, 'ivr.test.yaml'),
      'scenarios:\n  - name: wrong\n    steps:\n      - wait: 2s\n      - expect: { state: voicemail }\n',
    );
    const c = captureIo();
    expect(await main(['test', dir], c.io)).toBe(ExitCode.FAILURE);
    const lines = c
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({
      scenario: 'wrong',
      passed: false,
      failure: { step: 'expect {"state":"voicemail"}' },
    });
    expect(String((lines[1]!.failure as { at: string }).at)).toMatch(/ivr\.test\.yaml:5:9$/);
    expect(String((lines[1]!.failure as { message: string }).message)).toContain(
      '+00:01.400  ◆ state main-menu',
    );
    expect(lines.at(-1)).toEqual({ passed: 0, failed: 1, msg: '0 passed, 1 failed' });
  });

  it('fails when there is nothing to run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    const c = captureIo();
    expect(await main(['test', dir], c.io)).toBe(ExitCode.FAILURE);
    expect(c.err()).toContain('no scenario file (*.test.yaml)');
  });

  it('--transport per-call runs the scenarios with the server dialling one connection per call', async () => {
    const c = captureIo();
    expect(await main(['test', join(FLOWS, 'ivr.test.yaml'), '--transport', 'per-call'], c.io)).toBe(
      ExitCode.OK,
    );
    const last = JSON.parse(c.out().trim().split('\n').at(-1)!) as { passed: number; failed: number };
    expect(last.failed).toBe(0);
    expect(last.passed).toBeGreaterThan(0);
  });

  it('--transport with an unknown value is a wrong command line', async () => {
    const c = captureIo();
    expect(await main(['test', FLOWS, '--transport', 'ftp'], c.io)).toBe(ExitCode.USAGE);
    expect(c.err()).toContain("--transport: expected http, socket, per-call, got 'ftp'");
  });
});

describe('ringflow run', () => {
  it('--input values are converted to the declared type; a misfit or an undeclared input exits 2', async () => {
    const outbound = join(FLOWS, 'outbound.yaml');
    const wrong = captureIo();
    expect(await main(['run', outbound, '--input', 'maxAttempts=x'], wrong.io)).toBe(ExitCode.USAGE);
    expect(wrong.err()).toContain(
      'ringflow run: --input maxAttempts: input "maxAttempts" is declared number: expected a number, got the text "x". Declared inputs: number (string), maxAttempts (number).',
    );
    const unknown = captureIo();
    expect(await main(['run', outbound, '--input', 'maxAttemps=2'], unknown.io)).toBe(ExitCode.USAGE);
    expect(unknown.err()).toContain('the flow has no input "maxAttemps". Did you mean "maxAttempts"?');
    const c = captureIo();
    expect(
      await main(['run', outbound, '--input', 'maxAttempts=1', '--speed', 'max', '--limit', '2m'], c.io),
    ).toBe(ExitCode.OK);
    expect(c.out()).toContain('"state":"dialing"');
  });

  it('--demo plays the scenario callers side by side and ends with a summary', async () => {
    const c = captureIo({ isTerminal: true });
    expect(await main(['run', IVR, '--demo', '--speed', 'max'], c.io)).toBe(ExitCode.OK);
    const out = c.out();
    expect(out).toContain('9 simulated callers');
    expect(out).toMatch(/\+00:02\.000 {2}#1 {2}☎ caller presses 1/);
    expect(out).toMatch(/#1 {6}→ record voicemail\/c1/);
    expect(out).toMatch(/Summary: 9 calls \(6 completed, 2 continued, 1 hungUp\)/);
    expect(out).toContain('greet → main-menu → sales-menu → voicemail → goodbye');
  });

  it('--demo runs the callers of a scenario with several calls together: they share the queue', async () => {
    const c = captureIo({ isTerminal: true });
    const queue = new URL('../../../../flows/support-queue.yaml', import.meta.url).pathname;
    expect(await main(['run', queue, '--demo', '--speed', 'max'], c.io)).toBe(ExitCode.OK);
    const out = c.out();
    expect(out).toContain('15 simulated callers');
    expect(out).toMatch(/#4 {2}5551002 calls 100: two callers queue .* \(second\)/);
    // The second caller is told it is next (the first is talking with the only agent), then gets
    // the agent once the first conversation ended and the agent wrapped up.
    expect(out).toMatch(/\+00:39\.400 {2}#4 {6}→ play sound:queue-youarenext,/);
    expect(out).toMatch(
      /\+01:00\.000 {2}#3 {6}◇ queue → answered agent=PJSIP\/201 channelId=channel-\d+ waited=4/,
    );
    expect(out).toMatch(
      /\+01:14\.000 {2}#4 {6}◇ queue → answered agent=PJSIP\/201 channelId=channel-\d+ waited=65/,
    );
    // An agent who arrives at 20 s shows from then on.
    expect(out).toMatch(/\+00:21\.100 {2}#15 {2}■ call ended: completed, by the flow/);
  });

  it('--demo shows step outcomes (menu no-match, a dial that failed) and failures with their place and what followed', async () => {
    const c = captureIo({ isTerminal: true });
    expect(await main(['run', IVR, '--demo', '--speed', 'max'], c.io)).toBe(ExitCode.OK);
    const out = c.out();
    expect(out).toMatch(/#6 {6}◇ menu → noMatch \(1 so far\)/);
    expect(out).toMatch(/#5 {6}◇ menu → noInput \(3 so far\)/);
    expect(out).toMatch(
      /#5 {6}◇ dial → completed channelId=channel-\d+ endpoint=PJSIP\/operator bridgeId=bridge-\d+/,
    );
    expect(out).toMatch(
      /#7 {6}✗ dial failed \(operator, step 2, .*flows\/ivr\.yaml:\d+:\d+\): the called party could not be reached → the step's on\.failed: dialplan-operator/,
    );
  });

  it('a flow that fails at its first step still shows its timeline, the failure and its end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-cli-'));
    const file = join(dir, 'fails.yaml');
    await writeFile(
      file,
      'name: fails\nstart: a\nstates:\n  a:\n    steps:\n      - originate: { endpoint: nonsense, context: x, extension: s }\n      - hangup\n',
    );
    const c = captureIo({ isTerminal: true });
    expect(await main(['run', file, '--speed', 'max', '--limit', '20s'], c.io)).toBe(ExitCode.OK);
    const out = c.out();
    expect(out).toContain('#1  ◆ a');
    expect(out).toContain(
      `#1      ✗ originate failed (a, step 1, ${file}:6:9): channels.originateWithId answered 400 "Invalid endpoint specified" → nothing handled it: the flow ends with status failed and hangs up`,
    );
    expect(out).toContain('#1  ■ call ended: failed, by the flow');
    expect(out).toContain('Summary: 1 call (1 failed)');
  });

  it('speaks of one call in the singular, and of time as fast as possible without "at"', async () => {
    const c = captureIo({ isTerminal: true });
    expect(await main(['run', IVR, '--speed', 'max', '--limit', '20s'], c.io)).toBe(ExitCode.OK);
    expect(c.out()).toContain('1 simulated caller, virtual time as fast as possible.');
    expect(c.out()).toContain('Summary: 1 call (1 hungUp)');
  });

  it('without --demo, one silent caller, hung up at --limit; JSON lines off a terminal', async () => {
    const c = captureIo();
    expect(await main(['run', IVR, '--speed', 'max', '--limit', '20s'], c.io)).toBe(ExitCode.OK);
    const lines = c
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ event: 'summary', calls: 1, outcomes: { hungUp: 1 } });
    expect(lines).toContainEqual(expect.objectContaining({ kind: 'state', state: 'main-menu' }));
  });

  it('--server runs the flow for calls entering the app, then drains and exits 0 on SIGTERM', async () => {
    const clock = new VirtualClock();
    const sim = createSimulator({ clock });
    const wire = await startWireServer(sim, { users: [{ username: 'u', password: 'p' }], clock, port: 0 });
    let stop: (signal: string) => void = () => {};
    const c = captureIo({
      isTerminal: true,
      waitForStop: () =>
        new Promise<string>((resolve) => {
          stop = resolve;
        }),
    });
    const exit = main(
      [
        'run',
        IVR,
        '--server',
        wire.url.replace(/\/ari$/, ''),
        '--user',
        'u',
        '--password',
        'p',
        '--app',
        'ivr',
        '--drain',
        '5s',
      ],
      c.io,
      [createRunCommand({ clock })],
    );
    await until('the application to run', () => c.out().includes('is running as application "ivr"'));
    sim.driver.placeCall({ app: 'ivr', channelId: 'w1' });
    await until('the call in the main menu', async () => {
      await clock.advance(500);
      return c.out().includes('w1  ◆ main-menu');
    });
    stop('SIGTERM');
    await until('the drain to start', () => c.err().includes('draining 1 call,'));
    await clock.advance(5_000); // the drain deadline: the call is hung up
    expect(await exit).toBe(ExitCode.OK);
    expect(c.out()).toContain('w1  ■ call ended: drained, by the application');
    await wire.close();
    sim.close();
  });

  it('says in words why a flow file cannot be read', async () => {
    const folder = captureIo();
    expect(await main(['run', FLOWS], folder.io)).toBe(ExitCode.FAILURE);
    expect(folder.err()).toBe(`ringflow run: cannot read ${FLOWS}: it is a folder, not a file\n`);
    const missing = captureIo();
    expect(await main(['graph', 'bad/nope.yaml'], missing.io)).toBe(ExitCode.FAILURE);
    expect(missing.err()).toBe('ringflow graph: cannot read bad/nope.yaml: no such file\n');
  });

  it('refuses a wrong command line before doing anything', async () => {
    for (const [args, message] of [
      [['run'], 'give a flow file'],
      [['run', IVR, '--server', 'http://x:8088'], '--server needs --user and --password'],
      [['run', IVR, '--user', 'u'], '--user goes with --server'],
      [['run', IVR, '--speed', '0'], '--speed: expected a number above 0 or max'],
      [['run', IVR, '--server', 'ftp://x', '--user', 'u', '--password', 'p'], 'expected http:// or https://'],
    ] as const) {
      const c = captureIo();
      expect(await main([...args], c.io), args.join(' ')).toBe(ExitCode.USAGE);
      expect(c.err()).toContain(message);
    }
  });
});
