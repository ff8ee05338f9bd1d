import type { FlowDocument } from '../model/flowSchema.ts';
import { flowSchema } from '../model/flowSchema.ts';
import { checkValue } from '../schema/checkValue.ts';
import { checkFlowSemantics } from './checkFlowSemantics.ts';
import { type Diagnostic, diagnostic, formatPath, type Path } from './Diagnostic.ts';

/** A flow that passed validation (it may carry warnings). */
export interface Flow {
  readonly document: FlowDocument;
  /** Where it came from (a file path, or a name for builder flows). */
  readonly source: string;
  readonly warnings: readonly Diagnostic[];
  /**
   * Where a part of the document is written (`file:line:col`), when the flow came from a file:
   * step failures at run time name the step this way. Without it, the source and the path.
   */
  readonly where?: (path: Path) => string | undefined;
}

/** Where a part of a flow is written: `file:line:col` when known, else the source and the path. */
export function flowPlace(flow: Flow, path: Path): string {
  return flow.where?.(path) ?? `${flow.source} ${formatPath(path)}`;
}

export type FlowResult =
  | { readonly ok: true; readonly flow: Flow; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Sorts diagnostics by position (or path) so reports read top to bottom. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      JSON.stringify(a.path).localeCompare(JSON.stringify(b.path)),
  );
}

/**
 * Validates a flow document (plain data, from YAML or the builder) and reports every problem at
 * once: shape (unknown fields and steps, wrong types), then meaning (targets, reachability, loops,
 * events, outcomes, prompts, expressions). `locate` adds positions when the front end knows them.
 *
 * @example
 * const result = validateFlow(doc, { source: 'my-flow' });
 * if (!result.ok) console.log(result.diagnostics.map(formatDiagnostic).join('\n'));
 */
export function validateFlow(
  value: unknown,
  options: { source: string; locate?: (d: Diagnostic) => Diagnostic },
): FlowResult {
  const locate = options.locate ?? ((d: Diagnostic) => ({ ...d, file: options.source }));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const d = diagnostic(
      'not-a-flow',
      [],
      'A flow is a mapping with at least name, start and states; this document is not a mapping.',
    );
    return { ok: false, diagnostics: [locate(d)] };
  }
  const shape = checkValue(flowSchema.node, value);
  const diagnostics = [...shape.diagnostics];
  // Meaning checks need the right shape in the parts they read; they tolerate gaps elsewhere.
  const structural = diagnostics.some(
    (d) => d.path.length <= 1 && (d.name === 'wrong-type' || d.name === 'missing-field'),
  );
  if (!structural) {
    try {
      diagnostics.push(...checkFlowSemantics(value as FlowDocument, shape.expressions));
    } catch (e) {
      // A shape error deep inside can trip a meaning check; the shape errors already explain it.
      if (shape.diagnostics.length === 0) throw e;
    }
  }
  const located = sortDiagnostics(diagnostics.map(locate));
  if (located.some((d) => d.severity === 'error')) return { ok: false, diagnostics: located };
  return {
    ok: true,
    flow: { document: value as FlowDocument, source: options.source, warnings: located },
    diagnostics: located,
  };
}
