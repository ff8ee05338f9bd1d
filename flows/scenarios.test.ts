import { describe, expect, it } from 'vitest';
import {
  findScenarioFiles,
  loadScenarioFile,
  runScenario,
  SCENARIO_TRANSPORTS,
  type ScenarioResult,
} from '@ringflow/testing';
import { formatDiagnostic } from '@ringflow/dsl';

// Every scenario file under flows/ becomes a vitest suite, one test per scenario and transport,
// so `npm test` runs them as `npx ringflow test flows/ --transport <t>` does: over requests and an
// event stream (http), with the server dialling one connection (socket), and one per call.
const { files } = await findScenarioFiles([new URL('.', import.meta.url).pathname]);

for (const file of files) {
  const loaded = await loadScenarioFile(file);
  describe(`scenarios of ${file.replace(/^.*\/flows\//, 'flows/')}`, () => {
    if (!loaded.ok) {
      it('loads', () => {
        expect.fail(loaded.diagnostics.map(formatDiagnostic).join('\n'));
      });
      return;
    }
    const suite = loaded.suite;
    for (const scenario of suite.scenarios) {
      const results = new Map<string, ScenarioResult>();
      for (const transport of SCENARIO_TRANSPORTS) {
        it(`${scenario.name} (${transport})`, async () => {
          const result = await runScenario(suite, scenario, { transport });
          expect(result.transport).toBe(transport);
          if (result.failure) {
            const { place, step, message } = result.failure;
            expect.fail(`${place.file}:${place.line}:${place.column} step ${step}\n${message}`);
          }
          results.set(transport, result);
          // The calls went through the same states, in the same virtual time, whatever carried them.
          const http = results.get('http');
          if (transport !== 'http' && http) {
            expect({ calls: result.calls, virtualMs: result.virtualMs }).toEqual({
              calls: http.calls,
              virtualMs: http.virtualMs,
            });
          }
        });
      }
    }
  });
}
