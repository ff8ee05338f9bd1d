import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDiagnostic } from '@ringflow/dsl';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile, type ScenarioSuite } from '../loadScenarioFile.ts';
import { runScenario } from '../runScenario.ts';

/** A desk whose bot is talked to twice: the second agent step once the first is done. */
const DESK = `
name: desk
start: first
states:
  first:
    steps:
      - answer
      - agent:
          bot: ws://127.0.0.1:9/desk
          callerTimeout: 5s
          as: one
          on: { done: second, handoff: second, failed: bye, unreachable: bye, callerSilent: bye }
  second:
    steps:
      - agent:
          bot: ws://127.0.0.1:9/desk
          callerTimeout: 5s
          as: two
          on: { done: bye, handoff: bye, failed: bye, unreachable: bye, callerSilent: bye }
  bye:
    steps:
      - userEvent:
          name: Ended
          variables: { one: { expr: "vars.one.outcome" }, two: { expr: "vars.two.outcome" } }
      - hangup
`;

async function load(scenarios: string) {
  const dir = await mkdtemp(join(tmpdir(), 'ringflow-bot-sessions-'));
  await writeFile(join(dir, 'desk.yaml'), DESK);
  await writeFile(join(dir, 'desk.test.yaml'), scenarios);
  return loadScenarioFile(join(dir, 'desk.test.yaml'));
}

async function suiteOf(scenarios: string): Promise<ScenarioSuite> {
  const loaded = await load(scenarios);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\n'));
  return loaded.suite;
}

/**
 * A scripted bot with a script per session (`bot: { sessions }`): each agent session of the call
 * plays its own, in order (greet and turns alone are played by every session alike).
 */
describe('scenario files: a scripted bot session by session', () => {
  it('plays each session its own script, in order; unreachable for one', async () => {
    const suite = await suiteOf(`
flow: desk.yaml
scenarios:
  - name: two sessions
    bot:
      sessions:
        - greet: Hello from the first desk
          turns: [{ hears: hi, say: Passing you on, end: { result: done } }]
        - greet: Second desk here
          turns: [{ hears: thanks, end: { result: handoff } }]
    steps:
      - wait: 3s
      - say: hi
      - wait: 4s
      - say: thanks
      - wait: 2s
      - expect:
          bot: { said: [Hello from the first desk, Passing you on, Second desk here], ended: handoff }
          userEvent: { name: Ended, variables: { one: done, two: handoff } }
  - name: the second bot is down
    bot:
      sessions:
        - turns: [{ hears: hi, end: { result: done } }]
        - unreachable
    steps:
      - wait: 1s
      - say: hi
      - wait: 2s
      - expect:
          userEvent: { name: Ended, variables: { one: done, two: unreachable } }
`);
    for (const scenario of suite.scenarios)
      expect((await runScenario(suite, scenario)).failure?.message, scenario.name).toBeUndefined();
  });

  it('refuses sessions beside greet or turns, saying which to give', async () => {
    const loaded = await load(`
flow: desk.yaml
bot:
  greet: Hello
  sessions: [{ greet: Hi }]
scenarios:
  - name: a
    steps: [{ wait: 1s }]
`);
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? [] : loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '4:3 bot: sessions scripts each session, greet and turns every session alike: give sessions, or greet and turns',
    ]);
  });
});
