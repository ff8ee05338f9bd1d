import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { formatDiagnostic } from '@ringflow/dsl';
import { formatFailure, formatTimeline, loadScenarioFile, runScenario } from '@ringflow/testing';

/** A scenario file beside a flow, as the page lists it. */
export interface FlowScenarioFile {
  /** The flow's name. */
  readonly flow: string;
  readonly file: string;
  /** The scenarios' names (none when the file has problems). */
  readonly scenarios: readonly string[];
  /** What keeps the file from running, `file:line:col` first. */
  readonly problems: readonly string[];
}

/** How one scenario of a file went, with its timeline. */
export interface FlowScenarioResult {
  readonly scenario: string;
  readonly passed: boolean;
  /** For a failure: the step (`file:line:col press "1"`) and why. */
  readonly failure?: { readonly step: string; readonly message: string };
  /** What happened, one line each (`+00:02.000  → POST /channels/c1/play ...`). */
  readonly timeline: readonly string[];
  /** The step failures the flow reported, one line each. */
  readonly failures: readonly string[];
}

/**
 * The scenario files (`*.test.yaml`) beside each flow that test it: in the flow's folder, naming
 * the flow (`flow: desk.yaml`) or named after it (`desk.test.yaml`). A file with problems is listed
 * with them when its name starts with the flow's.
 *
 * @example
 * const files = await scenarioFilesOf([{ name: 'ivr', file: 'flows/ivr.yaml' }]);
 */
export async function scenarioFilesOf(
  flows: readonly { readonly name: string; readonly file: string }[],
): Promise<FlowScenarioFile[]> {
  const out: FlowScenarioFile[] = [];
  for (const flow of flows) {
    const dir = dirname(resolve(flow.file));
    const stem = basename(flow.file).replace(/\.ya?ml$/, '');
    const names = (await readdir(dir)).filter((n) => /\.test\.ya?ml$/.test(n)).sort();
    for (const name of names) {
      const file = join(dir, name);
      const loaded = await loadScenarioFile(file);
      if (loaded.ok) {
        if (resolve(loaded.suite.flowFile) !== resolve(flow.file)) continue;
        out.push({
          flow: flow.name,
          file,
          scenarios: loaded.suite.scenarios.map((s) => s.name),
          problems: [],
        });
      } else if (name.startsWith(`${stem}.`))
        out.push({
          flow: flow.name,
          file,
          scenarios: [],
          problems: loaded.diagnostics.map((d) => formatDiagnostic(d)),
        });
    }
  }
  return out;
}

/**
 * Runs the scenarios of a file (or only the one named `only`), in virtual time, and tells how each
 * went with its timeline. Throws when the file cannot be read or has problems (their text).
 */
export async function runScenarioFile(file: string, only?: string): Promise<FlowScenarioResult[]> {
  const loaded = await loadScenarioFile(file);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => formatDiagnostic(d)).join('\n'));
  const scenarios = loaded.suite.scenarios.filter((s) => only === undefined || s.name === only);
  if (scenarios.length === 0) throw new Error(`${file} has no scenario named "${only}"`);
  const results: FlowScenarioResult[] = [];
  for (const scenario of scenarios) {
    const result = await runScenario(loaded.suite, scenario, { timeline: true });
    const timeline = result.timeline ?? [];
    results.push({
      scenario: scenario.name,
      passed: result.passed,
      ...(result.failure
        ? {
            failure: {
              step: `${result.failure.place.file}:${result.failure.place.line}:${result.failure.place.column} ${result.failure.step}`,
              message: result.failure.message,
            },
          }
        : {}),
      timeline: formatTimeline(timeline)
        .split('\n')
        .filter((l) => l !== ''),
      failures: timeline.flatMap((e) => (e.kind === 'failure' ? [formatFailure(e.failure)] : [])),
    });
  }
  return results;
}
