import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Diagnostic } from '@ringflow/dsl';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { ExitCode } from '../ExitCode.ts';
import { displayPath, FlowProblems } from './FlowProblems.ts';

type Dsl = typeof import('@ringflow/dsl');

const HELP = `Usage: ringflow validate [paths...] [options]

Checks flow files, and scenario files (*.test.yaml) with the flow each one tests, and prints
every problem, one per line, in the form editors and terminals link:

  flows/ivr.yaml:12:9 error RF101 unknown-step: Unknown step "plya". Did you mean "play"?

Each problem is printed once, with its path relative to the current folder: a flow's problems,
then those of its scenario files (which bring the flow's errors: they are not repeated).

Paths are files, folders (searched for *.yaml and *.yml; node_modules, .git, dist skipped) or
globs ('flows/*.yaml', 'flows/**/*.yaml': quote them to let ringflow expand them); default: the
current folder. Each problem has a stable code (listed in packages/dsl/README.md). A summary
goes to stderr.

Options:
  --format <text|json|sarif>  text (default): the lines above; json: one JSON object per problem
                              ({ file, line, column, severity, code, name, message, path });
                              sarif: one SARIF 2.1.0 log, for code scanning in CI (GitHub:
                              github/codeql-action/upload-sarif)
  --strict                    treat warnings as errors (exit 1 when there is any warning)
  -h, --help                  show this help

Exit codes:
  0  no errors (warnings alone are fine)
  1  at least one error, or a file could not be read
  2  wrong command line (unknown option or format)

Examples:
  ringflow validate flows/
  ringflow validate flows/*.yaml --strict
  ringflow validate 'flows/**/*.yaml' --format sarif > ringflow.sarif
`;

const YAML_FILE = /\.ya?ml$/;
const SCENARIO_FILE = /\.test\.ya?ml$/;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `ringflow validate`: checks flow and scenario files and prints every diagnostic at
 * file:line:col (or as JSON lines, or as one SARIF log).
 *
 * @example
 * await validateCommand.run(['flows/'], io); // ExitCode.OK
 */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check flow and scenario files; print every problem at file:line:col',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(() => parse(args));
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.OK;
    }
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json' && format !== 'sarif')
      throw new UsageError(`--format: expected text, json or sarif, got '${format}'`);
    // The flow language alone (no runtime, no simulator); the testing package only for scenario files.
    const dsl = await import('@ringflow/dsl');
    const { findFiles, formatDiagnostic, toSarif } = dsl;
    const { files, missing } = await findFiles(positionals.length > 0 ? positionals : ['.'], (file) =>
      YAML_FILE.test(file),
    );
    for (const path of missing) io.stderr(`ringflow validate: cannot read ${path}: no such file\n`);
    if (files.length === 0 && missing.length === 0) {
      io.stderr(`ringflow validate: no .yaml file under ${positionals.join(' ') || '.'}\n`);
      return ExitCode.FAILURE;
    }
    // Each problem once, paths relative to here, a flow's problems with its scenario files'.
    const problems = new FlowProblems();
    let unreadable = missing.length;
    for (const file of files) {
      const checked = SCENARIO_FILE.test(file)
        ? await checkScenarioFile(dsl, file)
        : await checkFlowFile(dsl, file);
      if (typeof checked === 'string') {
        unreadable++;
        io.stderr(`ringflow validate: cannot read ${displayPath(file)}: ${checked}\n`);
        continue;
      }
      problems.add(checked.diagnostics, checked.flowFile);
    }
    const all = problems.ordered();
    for (const d of all) {
      if (format === 'text') io.stdout(`${formatDiagnostic(d)}\n`);
      else if (format === 'json') io.stdout(`${JSON.stringify(asJson(d))}\n`);
    }
    if (format === 'sarif') io.stdout(`${JSON.stringify(toSarif(all), null, 2)}\n`);
    const errors = all.filter((d) => d.severity === 'error').length;
    const warnings = all.length - errors;
    io.stderr(
      `${plural(files.length - (unreadable - missing.length), 'file')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${unreadable ? `, ${unreadable} unreadable` : ''}\n`,
    );
    const failed = errors > 0 || unreadable > 0 || (values.strict === true && warnings > 0);
    return failed ? ExitCode.FAILURE : ExitCode.OK;
  },
};

/** What checking one file found, and the flow the file is about (itself, or the flow a scenario file tests). */
interface Checked {
  readonly diagnostics: readonly Diagnostic[];
  readonly flowFile: string;
}

/** The diagnostics of a flow file, or why it cannot be read. */
async function checkFlowFile(dsl: Dsl, file: string): Promise<Checked | string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return dsl.describeFileError(error);
  }
  return { diagnostics: dsl.parseFlow(text, file).diagnostics, flowFile: file };
}

/** The diagnostics of a scenario file and of the flow it tests, or why it cannot be read. */
async function checkScenarioFile(dsl: Dsl, file: string): Promise<Checked | string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return dsl.describeFileError(error);
  }
  // Loaded only when a scenario file is checked: the reader of scenario files, not the harness
  // that runs them (which brings the simulator and the runtime).
  const { defaultFlowFile, loadScenarioFile } = await import('@ringflow/testing/scenario-files');
  const named = (dsl.parseYamlWithPositions(text, file).value as { flow?: unknown } | null)?.flow;
  const flowFile = typeof named === 'string' ? resolve(dirname(file), named) : defaultFlowFile(file);
  return { diagnostics: (await loadScenarioFile(file)).diagnostics, flowFile };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function asJson(d: Diagnostic) {
  return {
    file: d.file,
    line: d.line,
    column: d.column,
    severity: d.severity,
    code: d.code,
    name: d.name,
    message: d.message,
    path: d.path,
  };
}
