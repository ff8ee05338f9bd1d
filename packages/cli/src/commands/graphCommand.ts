import { parseArgs } from 'node:util';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { ExitCode } from '../ExitCode.ts';

const HELP = `Usage: ringflow graph <flow.yaml> [--format mermaid]

Prints the flow as a Mermaid state diagram (stateDiagram-v2) on stdout: one node per state with
its steps, one arrow per transition labelled with what takes it. Paste it into a Markdown file
(GitHub renders \`\`\`mermaid blocks) or https://mermaid.live.

Options:
  --format mermaid   the only format. svg is refused: rendering Mermaid to SVG needs a browser
                     (mermaid-cli drives Chromium), which ringflow does not install; render the
                     Mermaid text with mermaid.live, GitHub, or npx @mermaid-js/mermaid-cli
  -h, --help         show this help

Exit codes:
  0  diagram printed
  1  the flow has errors (run ringflow validate for the list) or cannot be read
  2  wrong command line

Example:
  ringflow graph flows/ivr.yaml > ivr.mmd
`;

/**
 * `ringflow graph`: the flow as a Mermaid state diagram.
 *
 * @example
 * await graphCommand.run(['flows/ivr.yaml'], io); // prints "stateDiagram-v2\n  [*] --> greet ..."
 */
export const graphCommand: Command = {
  name: 'graph',
  summary: 'print a flow as a Mermaid state diagram',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(() => parse(args));
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.OK;
    }
    const format = values.format ?? 'mermaid';
    if (format === 'svg')
      throw new UsageError(
        'svg is not supported: rendering Mermaid needs a browser (mermaid-cli drives Chromium). Print Mermaid (the default) and render it with mermaid.live, GitHub Markdown, or npx @mermaid-js/mermaid-cli -i ivr.mmd -o ivr.svg',
      );
    if (format !== 'mermaid') throw new UsageError(`--format: expected mermaid, got '${format}'`);
    const [file, ...extra] = positionals;
    if (file === undefined) throw new UsageError('give a flow file, e.g. ringflow graph flows/ivr.yaml');
    if (extra.length > 0) throw new UsageError(`one flow at a time; unexpected '${extra[0]}'`);
    const { describeFileError, FlowValidationError, loadFlowFile, toMermaid } = await import('@ringflow/dsl');
    try {
      io.stdout(toMermaid(await loadFlowFile(file)));
      return ExitCode.OK;
    } catch (error) {
      if (error instanceof FlowValidationError) {
        io.stderr(`ringflow graph: ${error.message}\n`);
        return ExitCode.FAILURE;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
        io.stderr(`ringflow graph: cannot read ${file}: ${describeFileError(error)}\n`);
        return ExitCode.FAILURE;
      }
      throw error;
    }
  },
};

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
}
