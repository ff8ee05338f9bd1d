import { describe, expect, it } from 'vitest';
import { findScenarioFiles, loadScenarioFile, runScenario } from '@ringflow/testing';
import { formatDiagnostic } from '@ringflow/dsl';

// Every scenario file under flows/ becomes a vitest suite, one test per scenario, so `npm test`
// runs them as `npx ringflow test flows/` does.
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
      it(scenario.name, async () => {
        const result = await runScenario(suite, scenario);
        if (result.failure) {
          const { place, step, message } = result.failure;
          expect.fail(`${place.file}:${place.line}:${place.column} step ${step}\n${message}`);
        }
      });
    }
  });
}
