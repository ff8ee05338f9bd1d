import type { Diagnostic } from '@ringflow/dsl';
import { FlowCoverage } from './FlowCoverage.ts';
import { loadScenarioFile, type ScenarioSuite } from './loadScenarioFile.ts';
import { type RunScenarioOptions, runScenario, type ScenarioResult } from './runScenario.ts';

/** Everything a run of scenario files found. */
export interface ScenarioRun {
  readonly results: readonly ScenarioResult[];
  /** Problems in scenario files (or their flows) that kept them from running. */
  readonly problems: readonly Diagnostic[];
  /** Coverage per flow file, over every scenario that tested it. */
  readonly coverage: ReadonlyMap<string, FlowCoverage>;
  readonly passed: number;
  readonly failed: number;
}

/** What `runScenarioFiles` reports while it works. */
export interface ScenarioRunListener {
  onSuite?(suite: ScenarioSuite): void;
  onResult?(result: ScenarioResult): void;
  onProblems?(file: string, diagnostics: readonly Diagnostic[]): void;
}

/**
 * Loads and runs every scenario of the given files, one after the other, and collects results
 * and coverage. A file with errors counts as one failure and its diagnostics are reported.
 *
 * @example
 * const run = await runScenarioFiles(['flows/ivr.test.yaml']);
 * // The same scenarios with the server dialling the application once per call:
 * const perCall = await runScenarioFiles(['flows/ivr.test.yaml'], {}, { transport: 'per-call' });
 * console.log(`${run.passed} passed, ${run.failed} failed`);
 */
export async function runScenarioFiles(
  files: readonly string[],
  listener: ScenarioRunListener = {},
  options: RunScenarioOptions = {},
): Promise<ScenarioRun> {
  const results: ScenarioResult[] = [];
  const problems: Diagnostic[] = [];
  const coverage = new Map<string, FlowCoverage>();
  let brokenFiles = 0;
  for (const file of files) {
    const loaded = await loadScenarioFile(file);
    if (!loaded.ok) {
      brokenFiles++;
      problems.push(...loaded.diagnostics);
      listener.onProblems?.(file, loaded.diagnostics);
      continue;
    }
    const suite = loaded.suite;
    listener.onSuite?.(suite);
    const flowCoverage = coverage.get(suite.flowFile) ?? new FlowCoverage(suite.flow);
    coverage.set(suite.flowFile, flowCoverage);
    for (const scenario of suite.scenarios) {
      const result = await runScenario(suite, scenario, options);
      // Coverage counts the states reached by any call of the scenario (of the main flow).
      for (const call of result.calls) {
        const flow = scenario.options.calls[call.name]?.flow;
        if (flow === undefined) flowCoverage.record(call.states);
      }
      results.push(result);
      listener.onResult?.(result);
    }
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, problems, coverage, passed, failed: results.length - passed + brokenFiles };
}
