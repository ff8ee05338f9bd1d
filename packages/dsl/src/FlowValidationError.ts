import { ErrorCode, RingflowError } from '@ringflow/client/interface';
import { type Diagnostic, formatDiagnostic } from './validate/Diagnostic.ts';

/**
 * A flow that failed validation. `diagnostics` holds every problem (errors and warnings), each
 * with a stable code and, for files, line and column; the message lists them one per line.
 */
export class FlowValidationError extends RingflowError {
  override name = 'FlowValidationError';
  readonly diagnostics: readonly Diagnostic[];

  constructor(source: string, diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(
      ErrorCode.CONFIG,
      `${source}: ${errors} problem${errors === 1 ? '' : 's'} to fix:\n${diagnostics.map(formatDiagnostic).join('\n')}`,
    );
    this.diagnostics = diagnostics;
  }
}
