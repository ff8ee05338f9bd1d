import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../ExitCode.ts';
import { main } from '../main.ts';
import { displayPath } from './FlowProblems.ts';
import { captureIo } from '../test-support/captureIo.ts';

// One misspelt target in the flow; one unknown step in each scenario file.
const FLOW = `name: typo
start: ask
prompts: { en: { ask: sound:demo-instruct } }
states:
  ask:
    steps: [answer, { play: { prompt: ask } }]
    next: byee
  bye:
    steps: [hangup]
`;
const SCENARIOS = (step: string) =>
  `flow: typo.yaml\nscenarios:\n  - name: one\n    steps:\n      - ${step}: "1"\n`;

// A folder inside the working directory (node_modules is ignored by git), named as a user would.
let dir: string;
let shown: string;
beforeAll(async () => {
  const base = join(process.cwd(), 'node_modules', '.cache');
  await mkdir(base, { recursive: true });
  dir = await mkdtemp(join(base, 'ringflow-validate-'));
  shown = relative(process.cwd(), dir);
  await writeFile(join(dir, 'typo.yaml'), FLOW);
  await writeFile(join(dir, 'typo.test.yaml'), SCENARIOS('pres'));
  await writeFile(join(dir, 'more.test.yaml'), SCENARIOS('presss'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ringflow validate and test report each problem once', () => {
  it('validate: a flow error found through its scenario files is told once, relative, with their own errors after it', async () => {
    for (const args of [[shown], [dir], [join(shown, 'typo.test.yaml'), join(dir, 'typo.yaml')]]) {
      const c = captureIo();
      expect(await main(['validate', ...args], c.io)).toBe(ExitCode.FAILURE);
      const lines = c
        .out()
        .trim()
        .split('\n')
        .filter((l) => l.includes(' error '));
      // The flow's two warnings (the unreachable bye, no way out), once each.
      expect(c.out().match(/ warning RF20[12] /g)).toHaveLength(2);
      const scenarioLines = args.length === 1 ? 2 : 1;
      expect(lines, args.join(' ')).toHaveLength(1 + scenarioLines);
      expect(lines[0]).toBe(
        `${shown}/typo.yaml:7:11 error RF200 unknown-target: No state named "byee". Did you mean "bye"?`,
      );
      // The scenario files' own problems follow their flow's, although they come first in the folder.
      for (const line of lines.slice(1)) expect(line).toMatch(/\.test\.yaml:5:9 error RF101 unknown-step: /);
      expect(c.err()).toBe(
        `${args.length === 1 ? 3 : 2} files checked: ${1 + scenarioLines} errors, 2 warnings\n`,
      );
    }
  });

  it('test: the flow errors are told with the first scenario file, the next one says they were told', async () => {
    const c = captureIo({ isTerminal: true });
    expect(await main(['test', shown], c.io)).toBe(ExitCode.FAILURE);
    const out = c.out();
    expect(out.match(/error RF200/g)).toHaveLength(1);
    expect(out).toContain(`  ${shown}/typo.yaml:7:11 error RF200 unknown-target:`);
    expect(out).not.toContain(dir);
    expect(out).toContain(`${shown}/more.test.yaml:5:9 error RF101 unknown-step: Unknown step "presss"`);
    expect(out).toContain(`${shown}/typo.test.yaml:5:9 error RF101 unknown-step: Unknown step "pres"`);
    expect(out).toContain('(and the 3 problems of its flow told above)');
    expect(out).toMatch(/0 passed, 2 failed\n$/);
  });
});

describe('displayPath', () => {
  it('is relative inside the working directory, absolute outside, whichever way the file was named', () => {
    expect(displayPath('/home/me/p/flows/ivr.yaml', '/home/me/p')).toBe('flows/ivr.yaml');
    expect(displayPath('flows/../flows/ivr.yaml', '/home/me/p')).toBe('flows/ivr.yaml');
    expect(displayPath('../other/ivr.yaml', '/home/me/p')).toBe('/home/me/other/ivr.yaml');
    expect(displayPath('/tmp/x.yaml', '/home/me/p')).toBe('/tmp/x.yaml');
  });
});
