import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Diagnostic, DiagnosticCode, type DiagnosticName, formatPath } from './Diagnostic.ts';

/** What each rule checks, shown by code-scanning tools beside the code. */
const RULE_TEXT: Readonly<Record<DiagnosticName, string>> = {
  'yaml-syntax': 'The file is not valid YAML (or repeats a key).',
  'not-a-flow': 'The document is not a flow (a mapping with name, start and states).',
  'unknown-field': 'A field the format does not have.',
  'unknown-step': 'A step that does not exist.',
  'wrong-type': 'A value of the wrong type.',
  'missing-field': 'A required field is missing.',
  'invalid-value': 'A value that is not allowed.',
  'invalid-duration': 'A duration that cannot be read.',
  'invalid-media': 'A media URI that cannot be played.',
  'unknown-target': 'A transition to a state that does not exist.',
  'unreachable-state': 'A state no transition leads to.',
  'no-hangup-path': 'A state from which no path hangs up, continues or ends the flow.',
  'unknown-start': 'The start state does not exist.',
  'eventless-loop': 'States that pass control to each other forever without waiting.',
  'unknown-subflow': 'A subflow that does not exist.',
  'unknown-input': 'An input that is not declared.',
  'missing-input': 'A required input that is not given.',
  'unknown-event': 'An event name that does not exist.',
  'unknown-outcome': 'An outcome the step never produces.',
  'unanswered-menu-key': 'A menu key that leads nowhere.',
  'wait-without-timeout': 'A state that can wait forever for an event.',
  'unknown-queue': 'A queue that is not defined under queues.',
  'expression-syntax': 'An expression that cannot be parsed.',
  'expression-type': 'An expression whose types do not fit.',
  'expression-too-complex': 'An expression over the limits.',
  'unknown-variable': 'A variable or input that is not declared.',
  'unknown-property': 'A field that call or event does not have.',
  'unknowable-event': 'event read where it is whatever the flow handled last.',
  'unknown-prompt': 'A prompt that is not in the catalogue.',
  'unknown-language': 'A language the catalogue does not have.',
  'prompt-missing-in-language': 'A prompt without media in a language.',
  'invalid-hours': 'Opening hours or a time zone that cannot be read.',
};

/** A file path as SARIF wants it: relative to `root` (with `/`) when inside it, else a file: URI. */
function artifactUri(file: string, root: string): string {
  const rel = relative(root, file);
  if (rel.startsWith('..') || isAbsolute(rel)) return pathToFileURL(file).href;
  return rel.split(sep).join('/');
}

/**
 * Diagnostics as one SARIF 2.1.0 log, the format code-scanning tools (GitHub code scanning, Azure
 * DevOps, GitLab) read to show problems on pull requests: one rule per diagnostic code, one result
 * per diagnostic at its file, line and column.
 *
 * @example
 * writeFileSync('flows.sarif', JSON.stringify(toSarif(diagnostics, { version: '0.1.0' })));
 */
export function toSarif(
  diagnostics: readonly Diagnostic[],
  options: { version?: string; root?: string } = {},
): Record<string, unknown> {
  const root = options.root ?? process.cwd();
  const names = Object.keys(DiagnosticCode) as DiagnosticName[];
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ringflow',
            ...(options.version ? { version: options.version } : {}),
            rules: names.map((name) => ({
              id: DiagnosticCode[name],
              name,
              shortDescription: { text: RULE_TEXT[name] },
            })),
          },
        },
        results: diagnostics.map((d) => ({
          ruleId: d.code,
          ruleIndex: names.indexOf(d.name),
          level: d.severity,
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(d.file ?? '<flow>', root) },
                region: { startLine: d.line ?? 1, startColumn: d.column ?? 1 },
              },
              logicalLocations: [{ fullyQualifiedName: formatPath(d.path) }],
            },
          ],
        })),
      },
    ],
  };
}
