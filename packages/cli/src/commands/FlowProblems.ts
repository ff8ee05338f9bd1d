import { isAbsolute, relative, resolve } from 'node:path';
import type { Diagnostic } from '@ringflow/dsl';

const SCENARIO_FILE = /\.test\.ya?ml$/;

/**
 * A file as the user names it: relative to the working directory when it lies inside it, else as
 * given (absolute). The same file always reads the same, whoever found it.
 *
 * @example displayPath('/home/me/proj/flows/ivr.yaml', '/home/me/proj') // 'flows/ivr.yaml'
 */
export function displayPath(file: string, cwd: string = process.cwd()): string {
  const absolute = resolve(cwd, file);
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

/**
 * The problems `ringflow validate` and `ringflow test` report: each once (a scenario file brings
 * its flow's errors, which the flow file may already have told), with paths relative to the
 * working directory, and grouped by flow: a flow's problems, then those of its scenario files.
 *
 * @example
 * const problems = new FlowProblems();
 * problems.add(flowDiagnostics, 'flows/ivr.yaml');
 * problems.add(scenarioDiagnostics, 'flows/ivr.yaml'); // the flow's errors again: dropped
 * for (const d of problems.ordered()) console.log(formatDiagnostic(d));
 */
export class FlowProblems {
  private readonly seen = new Set<string>();
  /** By flow (display path), in the order the flows came up. */
  private readonly groups = new Map<string, Diagnostic[]>();

  constructor(private readonly cwd: string = process.cwd()) {}

  /**
   * Adds the diagnostics of a flow file or of a scenario file (with its flow's), under the flow
   * they are about. Returns those not reported before, their file as `displayPath` shows it.
   */
  add(diagnostics: readonly Diagnostic[], flowFile: string): Diagnostic[] {
    const group = displayPath(flowFile, this.cwd);
    const list = this.groups.get(group) ?? [];
    this.groups.set(group, list);
    const added: Diagnostic[] = [];
    for (const d of diagnostics) {
      const shown = d.file === undefined ? d : { ...d, file: displayPath(d.file, this.cwd) };
      const key = JSON.stringify([
        shown.file,
        shown.line ?? shown.path,
        shown.column,
        shown.code,
        shown.message,
      ]);
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      list.push(shown);
      added.push(shown);
    }
    return added;
  }

  /** Every problem, flow by flow: the flow file's first, then its scenario files', each top to bottom. */
  ordered(): Diagnostic[] {
    return [...this.groups.values()].flatMap((list) => orderInGroup(list));
  }
}

/** A flow's problems, then each scenario file's (flows before scenarios, then by file, line, column). */
export function orderInGroup(list: readonly Diagnostic[]): Diagnostic[] {
  const rank = (d: Diagnostic) => (SCENARIO_FILE.test(d.file ?? '') ? 1 : 0);
  return list
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        rank(a.d) - rank(b.d) ||
        (a.d.file ?? '').localeCompare(b.d.file ?? '') ||
        (a.d.line ?? 0) - (b.d.line ?? 0) ||
        (a.d.column ?? 0) - (b.d.column ?? 0) ||
        a.i - b.i,
    )
    .map(({ d }) => d);
}
