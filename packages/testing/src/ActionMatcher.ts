import { findOperation, operationsByResource, type ResourceName } from '@ringflow/client/interface';
import type { RecordedAction } from './CallTimeline.ts';
import { describeExpected, type Expected, matchValue } from './matchValue.ts';

/**
 * Which REST action an expectation is about: an operation name (`channels.play`), a method and
 * path (`POST /channels/c1/play`), or an object with any of `operation`, `method`, `path` (text or
 * RegExp) and `params` (partial: path, query and body parameters, each a literal, a RegExp or a
 * partial object).
 */
export type ActionMatcher =
  | string
  | {
      readonly operation?: string;
      readonly method?: string;
      readonly path?: string | RegExp;
      readonly params?: Readonly<Record<string, Expected>>;
    };

/** A matcher checked and normalised once. */
export interface CompiledActionMatcher {
  readonly description: string;
  /** Matches the action's kind (operation / method / path), parameters aside. */
  sameKind(action: RecordedAction): boolean;
  matches(action: RecordedAction): boolean;
}

const METHOD_PATH = /^(GET|POST|PUT|DELETE)\s+(\/\S*)$/i;

/**
 * Checks a matcher (an unknown operation name is a mistake in the test, reported with the
 * operations of that resource) and compiles it.
 *
 * @example
 * compileActionMatcher({ operation: 'channels.play', params: { media: /hello/ } }).matches(action)
 */
export function compileActionMatcher(matcher: ActionMatcher): CompiledActionMatcher {
  const spec =
    typeof matcher === 'string'
      ? METHOD_PATH.test(matcher)
        ? { method: METHOD_PATH.exec(matcher)![1]!, path: METHOD_PATH.exec(matcher)![2]! }
        : { operation: matcher }
      : matcher;
  if (spec.operation !== undefined) checkOperation(spec.operation);
  const method = spec.method?.toUpperCase();
  const params = 'params' in spec ? spec.params : undefined;
  const sameKind = (a: RecordedAction) =>
    (spec.operation === undefined || a.operation === spec.operation) &&
    (method === undefined || a.method === method) &&
    (spec.path === undefined ||
      (spec.path instanceof RegExp ? spec.path.test(a.path) : a.path === spec.path));
  const what = [spec.operation, method, spec.path === undefined ? undefined : String(spec.path)].filter(
    (x) => x !== undefined,
  );
  return {
    description: `an action ${what.join(' ') || '(any)'}${params ? ` with ${describeExpected(params)}` : ''}`,
    sameKind,
    matches: (a) => sameKind(a) && (params === undefined || matchValue(params, a.params)),
  };
}

function checkOperation(operation: string): void {
  const dot = operation.indexOf('.');
  const resource = operation.slice(0, dot) as ResourceName;
  const name = operation.slice(dot + 1);
  if (dot > 0 && findOperation(resource, name)) return;
  const known = operationsByResource[resource as keyof typeof operationsByResource];
  const hint = known
    ? `the operations of ${resource} are: ${known.map((o) => `${resource}.${o.name}`).join(', ')}`
    : `write resource.operation, e.g. channels.play, bridges.addChannel, events.userEvent`;
  throw new TypeError(`unknown operation '${operation}' in an action expectation: ${hint}`);
}
