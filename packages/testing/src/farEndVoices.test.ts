import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '@ringflow/dsl';
import { loadScenarioFile } from './loadScenarioFile.ts';
import { runScenario } from './runScenario.ts';

/** A flow that dials the customer (not bridged) and reports what detectMachine heard on that leg. */
const FLOW = `name: leg-amd
start: a
states:
  a:
    steps:
      - answer
      - dial: { endpoint: PJSIP/customer, bridge: false, as: leg }
      - detectMachine: { channel: { expr: vars.leg.channelId }, as: amd }
      - userEvent: { name: Heard, variables: { outcome: { expr: vars.amd.outcome } } }
      - hangup
`;

const SCENARIOS = `flow: leg-amd.yaml
scenarios:
  - name: a machine with a beep
    farEnds: { PJSIP/customer: { machine: { greeting: 4s, beep: true } } }
    steps:
      - wait: 20s
      - expect: { userEvent: { name: Heard, variables: { outcome: beep } } }
  - name: a person who says hello
    farEnds: { PJSIP/customer: { human: { says: 1s, answerAfter: 3s } } }
    steps:
      - wait: 20s
      - expect: { userEvent: { name: Heard, variables: { outcome: human } } }
`;

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function load(scenarios: string) {
  dir = await mkdtemp(join(tmpdir(), 'ringflow-voices-'));
  await writeFile(join(dir, 'leg-amd.yaml'), FLOW);
  await writeFile(join(dir, 'leg-amd.test.yaml'), scenarios);
  return loadScenarioFile(join(dir, 'leg-amd.test.yaml'));
}

describe('far ends that talk, in scenario files', () => {
  it('machine: { greeting, beep } and human: { says } are far ends of scenarios', async () => {
    const loaded = await load(SCENARIOS);
    if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\n'));
    for (const scenario of loaded.suite.scenarios) {
      const result = await runScenario(loaded.suite, scenario);
      expect([scenario.name, result.failure?.message]).toEqual([scenario.name, undefined]);
    }
  });

  it('a wrong one is reported at its place', async () => {
    const loaded = await load(SCENARIOS.replace('greeting: 4s', 'greeting: soon'));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.diagnostics.map(formatDiagnostic).join('\n')).toMatch(/leg-amd\.test\.yaml:4:\d+ error/);
  });
});
