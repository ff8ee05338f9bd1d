import { parseArgs } from 'node:util';
import type { CoverageReport, ScenarioResult } from '@ringflow/testing';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import type { CommandIo } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { outputFormat } from '../OutputFormat.ts';
import { displayPath, FlowProblems, orderInGroup } from './FlowProblems.ts';

/** The values of --transport (ScenarioTransport of @ringflow/testing, which loads only when the command runs). */
const TRANSPORTS = ['http', 'socket', 'per-call'] as const;

const HELP = `Usage: ringflow test [paths...] [options]

Runs the scenario tests of flows: every <flow>.test.yaml under the given files and folders
(default: the current folder; node_modules is skipped). Each scenario places one call on the
in-process simulator, through the runtime, in virtual time: a scenario of minutes runs in
milliseconds. The format is described in packages/dsl/README.md ("Testing flows").

Output: on a terminal, one line per scenario as it finishes (✓ or ✗), the failures in full (what
was expected, what happened, the call's timeline) and a last line "N passed, M failed". Otherwise
(a pipe, CI) JSON lines: one per scenario { scenario, file, passed, failure? }, then
{ passed, failed, msg: "N passed, M failed" }.

Options:
  --coverage             after the run, list per flow the states and transitions the scenarios
                         visited and the ones never visited
  --format <text|json>   force the output form (default: text on a terminal, else json)
  --transport <http|socket|per-call>
                         how the application and the simulated server talk, over what the
                         scenario files say (default http: requests and an event stream;
                         socket: the server dials one connection and REST travels on it;
                         per-call: the server dials one connection per call); still in
                         process and in virtual time
  -h, --help             show this help

Exit codes:
  0  every scenario passed
  1  a scenario failed, a scenario file or its flow has errors, or no scenario was found
  2  wrong command line

Example:
  ringflow test flows/ --coverage
`;

/**
 * `ringflow test`: runs the YAML scenarios found under the paths.
 *
 * @example
 * await testCommand.run(['flows/'], io); // prints "7 passed, 0 failed"
 */
export const testCommand: Command = {
  name: 'test',
  summary: 'run the scenario tests of flows (<flow>.test.yaml) in virtual time',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(() => parse(args));
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.OK;
    }
    const format = outputFormat(values.format, io);
    const transport = values.transport;
    if (transport !== undefined && !TRANSPORTS.includes(transport as (typeof TRANSPORTS)[number]))
      throw new UsageError(`--transport: expected ${TRANSPORTS.join(', ')}, got '${transport}'`);
    // The test harness (simulator, runtime, flow compiler) loads with the command, not before.
    const [{ formatDiagnostic }, { findScenarioFiles, formatCoverage, runScenarioFiles }] = await Promise.all(
      [import('@ringflow/dsl'), import('@ringflow/testing')],
    );
    const { files, missing } = await findScenarioFiles(positionals.length > 0 ? positionals : ['.']);
    for (const path of missing) io.stderr(`ringflow test: ${path}: no such file or folder\n`);
    if (files.length === 0) {
      io.stderr(
        `ringflow test: no scenario file (*.test.yaml) under ${positionals.join(' ') || '.'}; write one beside the flow (see packages/dsl/README.md)\n`,
      );
      return ExitCode.FAILURE;
    }
    const out = format === 'json' ? jsonOutput(io) : textOutput(io, formatCoverage);
    const problems = new FlowProblems();
    const run = await runScenarioFiles(
      files,
      {
        onSuite: (suite) => out.suite(suite.file, suite.scenarios.length),
        onResult: (result) => out.result(result),
        // Each problem once, flow first: two scenario files of one broken flow tell its errors once.
        onProblems: (file, diagnostics) => {
          const fresh = problems.add(diagnostics, file);
          out.problems(file, orderInGroup(fresh).map(formatDiagnostic), diagnostics.length - fresh.length);
        },
      },
      transport === undefined ? {} : { transport: transport as (typeof TRANSPORTS)[number] },
    );
    if (values.coverage) for (const coverage of run.coverage.values()) out.coverage(coverage.report());
    out.summary(run.passed, run.failed);
    return run.failed > 0 || missing.length > 0 ? ExitCode.FAILURE : ExitCode.OK;
  },
};

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      coverage: { type: 'boolean' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      transport: { type: 'string' },
    },
  });
}

interface TestOutput {
  suite(file: string, count: number): void;
  result(result: ScenarioResult): void;
  /** Problems that keep a scenario file from running; `repeated`: how many were told already (by another file). */
  problems(file: string, lines: readonly string[], repeated: number): void;
  coverage(report: CoverageReport): void;
  summary(passed: number, failed: number): void;
}

function shortPath(file: string): string {
  return displayPath(file);
}

function textOutput(io: CommandIo, formatCoverage: (report: CoverageReport) => string): TestOutput {
  const failures: ScenarioResult[] = [];
  return {
    suite: (file, count) => io.stdout(`${shortPath(file)} (${count} scenario${count === 1 ? '' : 's'})\n`),
    result: (r) => {
      const seconds = (r.virtualMs / 1000).toFixed(1);
      io.stdout(`  ${r.passed ? '✓' : '✗'} ${r.scenario}  (${seconds} s of call)\n`);
      if (!r.passed) failures.push(r);
    },
    problems: (file, lines, repeated) => {
      io.stdout(`${shortPath(file)}: cannot run, fix these first:\n`);
      for (const line of lines) io.stdout(`  ${line}\n`);
      if (repeated > 0)
        io.stdout(
          `  (and ${repeated === 1 ? 'the problem' : `the ${repeated} problems`} of its flow told above)\n`,
        );
    },
    coverage: (report) => io.stdout(`\n${formatCoverage(report)}\n`),
    summary: (passed, failed) => {
      for (const r of failures) {
        const f = r.failure!;
        io.stdout(
          `\n✗ ${r.scenario}\n  at ${shortPath(f.place.file)}:${f.place.line}:${f.place.column} (${f.step})\n${indent(f.message)}\n`,
        );
      }
      io.stdout(`\n${passed} passed, ${failed} failed\n`);
    },
  };
}

function jsonOutput(io: CommandIo): TestOutput {
  const line = (value: unknown) => io.stdout(`${JSON.stringify(value)}\n`);
  return {
    suite: (file, count) => line({ suite: shortPath(file), scenarios: count }),
    result: (r) =>
      line({
        scenario: r.scenario,
        file: shortPath(r.suite),
        line: r.place.line,
        passed: r.passed,
        virtualMs: r.virtualMs,
        // The states of the (first) caller; `calls` when the scenario has several.
        states: r.calls[0]?.states ?? [],
        ...(r.calls.length > 1 ? { calls: r.calls } : {}),
        ...(r.failure
          ? {
              failure: {
                at: `${shortPath(r.failure.place.file)}:${r.failure.place.line}:${r.failure.place.column}`,
                step: r.failure.step,
                message: r.failure.message,
              },
            }
          : {}),
      }),
    problems: (file, lines, repeated) =>
      line({ file: shortPath(file), problems: lines, ...(repeated > 0 ? { toldAbove: repeated } : {}) }),
    coverage: (report) => line({ coverage: report }),
    summary: (passed, failed) => line({ passed, failed, msg: `${passed} passed, ${failed} failed` }),
  };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
