import { readFile } from 'node:fs/promises';
import { FlowValidationError } from './FlowValidationError.ts';
import { diagnostic, type Path } from './validate/Diagnostic.ts';
import { type Flow, type FlowResult, sortDiagnostics, validateFlow } from './validate/validateFlow.ts';
import { parseYamlWithPositions } from './yaml/parseYamlWithPositions.ts';

/**
 * Parses and validates a YAML flow. Never throws for a mistake in the flow: every problem comes
 * back in `diagnostics`, positioned at file:line:col.
 *
 * @example
 * const result = parseFlow(text, 'flows/ivr.yaml');
 * if (!result.ok) for (const d of result.diagnostics) console.error(formatDiagnostic(d));
 */
export function parseFlow(text: string, file = '<flow>'): FlowResult {
  const parsed = parseYamlWithPositions(text, file);
  if (parsed.diagnostics.some((d) => d.severity === 'error'))
    return { ok: false, diagnostics: sortDiagnostics(parsed.diagnostics) };
  const result = validateFlow(parsed.value, { source: file, locate: parsed.locate });
  const diagnostics = sortDiagnostics([...parsed.diagnostics, ...result.diagnostics]);
  const where = (path: Path) => {
    const d = parsed.locate(diagnostic('invalid-value', path, ''));
    return d.line === undefined ? undefined : `${d.file ?? file}:${d.line}:${d.column ?? 1}`;
  };
  return result.ok
    ? { ok: true, flow: { ...result.flow, warnings: diagnostics, where }, diagnostics }
    : { ok: false, diagnostics };
}

/**
 * Reads, parses and validates a YAML flow file.
 * @throws FlowValidationError listing every problem when the flow has errors.
 * @example const flow = await loadFlowFile('flows/ivr.yaml');
 */
export async function loadFlowFile(path: string): Promise<Flow> {
  const text = await readFile(path, 'utf8');
  const result = parseFlow(text, path);
  if (!result.ok) throw new FlowValidationError(path, result.diagnostics);
  return result.flow;
}
