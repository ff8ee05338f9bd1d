import { formatDiagnostic } from '@ringflow/dsl';
import {
  findScenarioFiles,
  loadScenarioFile,
  runScenario,
  SCENARIO_TRANSPORTS,
  type ScenarioResult,
} from '@ringflow/testing';
import { describe, expect, it } from 'vitest';

// The scenario files of this example (echo-line.test.yaml, with the echo bot as its bot module)
// in the suite, as `npx ringflow test examples/echo-audio-bot --transport <t>` runs them: one test
// per scenario and transport (flows/scenarios.test.ts does the same for flows/).
const { files } = await findScenarioFiles([new URL('.', import.meta.url).pathname]);

describe('examples/echo-audio-bot', () => {
  it('has its scenario file', () => {
    expect(files.map((f) => f.replace(/^.*\/examples\//, 'examples/'))).toEqual([
      'examples/echo-audio-bot/echo-line.test.yaml',
    ]);
  });
});

for (const file of files) {
  const loaded = await loadScenarioFile(file);
  describe(`scenarios of ${file.replace(/^.*\/examples\//, 'examples/')}`, () => {
    if (!loaded.ok) {
      it('loads', () => {
        expect.fail(loaded.diagnostics.map(formatDiagnostic).join('\n'));
      });
      return;
    }
    for (const scenario of loaded.suite.scenarios) {
      const results = new Map<string, ScenarioResult>();
      for (const transport of SCENARIO_TRANSPORTS) {
        it(`${scenario.name} (${transport})`, async () => {
          const result = await runScenario(loaded.suite, scenario, { transport });
          if (result.failure) {
            const { place, step, message } = result.failure;
            expect.fail(`${place.file}:${place.line}:${place.column} step ${step}\n${message}`);
          }
          results.set(transport, result);
          const http = results.get('http');
          if (transport !== 'http' && http)
            expect({ calls: result.calls, virtualMs: result.virtualMs }).toEqual({
              calls: http.calls,
              virtualMs: http.virtualMs,
            });
        });
      }
    }
  });
}
