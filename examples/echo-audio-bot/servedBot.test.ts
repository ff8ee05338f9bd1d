import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDiagnostic } from '@ringflow/dsl';
import { serveAudioBot } from '@ringflow/runtime';
import { loadScenarioFile, runScenario } from '@ringflow/testing';
import { describe, expect, it } from 'vitest';
import { echoAudioBot } from './echoAudioBot.ts';

const FLOW = fileURLToPath(new URL('./echo-line.yaml', import.meta.url));

/**
 * A scenario file whose bot is served on a real WebSocket (`bot: { url }`), as `serve.ts` serves
 * the echo bot (or as a bot written in another language is served): the scenario's time passes as
 * on the wall, so the bot, on its own clock, answers in the time it takes.
 */
describe('echo-line.yaml with the echo bot served on a WebSocket (bot: { url })', () => {
  it('two echoes, then the operator', async () => {
    const served = await serveAudioBot(echoAudioBot({ pauseMs: 300 }), { port: 0, path: '/echo' });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'ringflow-served-bot-'));
      const file = join(dir, 'served.test.yaml');
      await writeFile(
        file,
        `flow: ${FLOW}
farEnds: { PJSIP/operator: noAnswer }
bot: { url: "${served.url}" }
scenarios:
  - name: served
    steps:
      - wait: 700ms
      - talk: 600ms
      - wait: 1.5s
      - say: hello again
      - wait: 2s
      - expect:
          bot: { marks: { played: [ready, echo-1, echo-2] }, ended: handoff, heard: { atLeast: 1.5s } }
          visited: operator
`,
      );
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\n'));
      expect(loaded.suite.scenarios[0]!.options.realTime).toBe(true);
      const result = await runScenario(loaded.suite, loaded.suite.scenarios[0]!);
      expect(result.failure?.message).toBeUndefined();
    } finally {
      await served.close();
    }
  });

  it('url and a script together are refused at bot:', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringflow-served-bot-'));
    const file = join(dir, 'both.test.yaml');
    await writeFile(
      file,
      `flow: ${FLOW}\nbot: { url: "ws://127.0.0.1:9200/echo", greet: Hello }\nscenarios:\n  - name: a\n    steps: [{ wait: 1s }]\n`,
    );
    const loaded = await loadScenarioFile(file);
    expect(loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '2:6 bot: url is a bot served on a WebSocket, greet and turns (or sessions) a scripted bot: give one or the other',
    ]);
  });
});
