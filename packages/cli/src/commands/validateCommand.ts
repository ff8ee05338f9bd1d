import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Diagnostic } from '@ringflow/dsl';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { ExitCode } from '../ExitCode.ts';
import { findFlowFiles } from '../findFlowFiles.ts';

const HELP = `Usage: ringflow validate <flow.yaml | folder>... [options]

Checks flow files (in a folder: every *.yaml but the scenario files *.test.yaml) and prints every problem, one per line, in the form editors and terminals link:

  flows/ivr.yaml:12:9 error RF101 unknown-step: Unknown step "plya". Did you mean "play"?

Each problem has a stable code (listed in packages/dsl/README.md). A summary goes to stderr.

Options:
  --format <text|json>   text (default): the lines above; json: one JSON object per problem
                         ({ file, line, column, severity, code, name, message, path })
  --strict               treat warnings as errors (exit 1 when there is any warning)
  -h, --help             show this help

Exit codes:
  0  no errors (warnings alone are fine)
  1  at least one error, or a file could not be read
  2  wrong command line (no file given, unknown option)

Example:
  ringflow validate flows/
`;

/**
 * `ringflow validate`: checks flow files and prints every diagnostic at file:line:col.
 *
 * @example
 * await validateCommand.run(['flows/ivr.yaml'], io); // ExitCode.OK
 */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check flow files; print every problem at file:line:col',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(() => parse(args));
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.OK;
    }
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json')
      throw new UsageError(`--format: expected text or json, got '${format}'`);
    if (positionals.length === 0)
      throw new UsageError('give at least one flow file or folder, e.g. ringflow validate flows/');
    // The flow language alone: no runtime, no simulator.
    const { formatDiagnostic, parseFlow } = await import('@ringflow/dsl');
    const { files, missing } = await findFlowFiles(positionals);
    let errors = 0;
    let warnings = 0;
    let checked = 0;
    let unreadable = missing.length;
    for (const path of missing) io.stderr(`ringflow validate: cannot read ${path}: ENOENT\n`);
    if (files.length === 0 && missing.length === 0) {
      io.stderr(`ringflow validate: no flow file (*.yaml) under ${positionals.join(' ')}\n`);
      return ExitCode.FAILURE;
    }
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        unreadable++;
        io.stderr(
          `ringflow validate: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
        );
        continue;
      }
      checked++;
      const result = parseFlow(text, file);
      for (const d of result.diagnostics) {
        if (d.severity === 'error') errors++;
        else warnings++;
        io.stdout(format === 'json' ? `${JSON.stringify(asJson(d))}\n` : `${formatDiagnostic(d)}\n`);
      }
    }
    io.stderr(
      `${checked} file(s) checked: ${errors} error(s), ${warnings} warning(s)${unreadable ? `, ${unreadable} unreadable` : ''}\n`,
    );
    const failed = errors > 0 || unreadable > 0 || (values.strict === true && warnings > 0);
    return failed ? ExitCode.FAILURE : ExitCode.OK;
  },
};

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
