/** Where a value sits in a document: object keys and array indexes from the root. */
export type Path = readonly (string | number)[];

/**
 * Stable diagnostic codes. Tools and tests branch on `code`; the name after it says the same in
 * words. Codes never change meaning; new problems get new codes.
 */
export const DiagnosticCode = {
  'yaml-syntax': 'RF001',
  'not-a-flow': 'RF002',
  'unknown-field': 'RF100',
  'unknown-step': 'RF101',
  'wrong-type': 'RF102',
  'missing-field': 'RF103',
  'invalid-value': 'RF104',
  'invalid-duration': 'RF105',
  'invalid-media': 'RF106',
  'unknown-target': 'RF200',
  'unreachable-state': 'RF201',
  'no-hangup-path': 'RF202',
  'unknown-start': 'RF203',
  'eventless-loop': 'RF204',
  'unknown-subflow': 'RF205',
  'unknown-input': 'RF206',
  'missing-input': 'RF207',
  'unknown-event': 'RF208',
  'unknown-outcome': 'RF209',
  'unanswered-menu-key': 'RF210',
  'wait-without-timeout': 'RF211',
  'unknown-queue': 'RF212',
  'expression-syntax': 'RF300',
  'expression-type': 'RF301',
  'expression-too-complex': 'RF302',
  'unknown-variable': 'RF303',
  'unknown-property': 'RF304',
  'unknowable-event': 'RF305',
  'unknown-prompt': 'RF310',
  'unknown-language': 'RF311',
  'prompt-missing-in-language': 'RF312',
  'invalid-hours': 'RF320',
} as const;

export type DiagnosticName = keyof typeof DiagnosticCode;
export type DiagnosticCodeValue = (typeof DiagnosticCode)[DiagnosticName];

/** One problem found in a flow. Errors stop compilation; warnings do not. */
export interface Diagnostic {
  readonly code: DiagnosticCodeValue;
  readonly name: DiagnosticName;
  readonly severity: 'error' | 'warning';
  /** What is wrong and how to fix it. */
  readonly message: string;
  /** Path of the offending value (or key) in the document. */
  readonly path: Path;
  /** Whether the problem is the key itself (unknown field) or its value. */
  readonly target: 'key' | 'value';
  /** Character offset inside the value (expressions), used to refine the column. */
  readonly offset?: number;
  /** Filled in by a front end that knows positions (YAML): file name, 1-based line and column. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/** Builds a diagnostic; warnings are chosen by the caller. */
export function diagnostic(
  name: DiagnosticName,
  path: Path,
  message: string,
  extra: { severity?: 'error' | 'warning'; target?: 'key' | 'value'; offset?: number } = {},
): Diagnostic {
  return {
    code: DiagnosticCode[name],
    name,
    severity: extra.severity ?? 'error',
    message,
    path,
    target: extra.target ?? 'value',
    ...(extra.offset !== undefined ? { offset: extra.offset } : {}),
  };
}

/**
 * Writes a path the way a reader finds it in the file: `states.menu.steps[0].play`.
 * @example formatPath(['states', 'menu', 'steps', 0]) // 'states.menu.steps[0]'
 */
export function formatPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else
      out += out === '' ? part : /^[A-Za-z_$][\w$-]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  }
  return out || '(document)';
}

/**
 * One line per diagnostic, in the `file:line:col` form editors and terminals link:
 * `flows/ivr.yaml:12:9 error RF101 unknown-step: ...`. Without positions the path is shown.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where =
    d.line !== undefined
      ? `${d.file ?? '<flow>'}:${d.line}:${d.column ?? 1}`
      : `${d.file ?? '<flow>'} ${formatPath(d.path)}`;
  return `${where} ${d.severity} ${d.code} ${d.name}: ${d.message}`;
}
