import { type ActionMatcher, compileActionMatcher } from './ActionMatcher.ts';
import { formatTimeline, type RecordedAction } from './CallTimeline.ts';
import { describeExpected, type Expected, matchValue } from './matchValue.ts';

type Fail = (expected: string, happened: string) => never;

/** Checks that an action is among `all` (`times`: exactly that many); returns the matching ones. */
export function checkAction(
  all: readonly RecordedAction[],
  matcher: ActionMatcher,
  options: { times?: number },
  fail: Fail,
): RecordedAction[] {
  const compiled = compileActionMatcher(matcher);
  const found = all.filter((a) => compiled.matches(a));
  const ok = options.times === undefined ? found.length > 0 : found.length === options.times;
  if (ok) return found;
  const expected =
    options.times === undefined
      ? compiled.description
      : `${compiled.description}, ${options.times} time${options.times === 1 ? '' : 's'}`;
  const similar = all.filter((a) => compiled.sameKind(a));
  const happened =
    found.length > 0
      ? `it was made ${found.length} time${found.length === 1 ? '' : 's'}`
      : similar.length > 0
        ? `the parameters differ; the actions of that kind were:\n${similar.map((a) => `  ${formatTimeline([a])}`).join('\n')}`
        : `no such action was made (${all.length} actions in all, marked → below)`;
  return fail(expected, happened);
}

/** Checks that no action of `all` matches. */
export function checkNoAction(all: readonly RecordedAction[], matcher: ActionMatcher, fail: Fail): void {
  const compiled = compileActionMatcher(matcher);
  const found = all.filter((a) => compiled.matches(a));
  if (found.length > 0)
    fail(
      `no ${compiled.description.replace(/^an /, '')}`,
      `it was made:\n${found.map((a) => `  ${formatTimeline([a])}`).join('\n')}`,
    );
}

/** Checks that a user event was raised among `all`, with these variables (partial). */
export function checkUserEvent(
  all: readonly RecordedAction[],
  name: string,
  variables: Readonly<Record<string, Expected>> | undefined,
  fail: Fail,
): RecordedAction[] {
  const raised = all.filter((a) => a.operation === 'events.userEvent');
  const named = raised.filter((a) => a.params.eventName === name);
  const found = named.filter(
    (a) => variables === undefined || matchValue(variables, (a.body as { variables?: unknown })?.variables),
  );
  if (found.length > 0) return found;
  const expected = `a user event ${name}${variables ? ` with variables ${describeExpected(variables)}` : ''}`;
  const list = (named.length > 0 ? named : raised)
    .map(
      (a) =>
        `  ${a.params.eventName} ${JSON.stringify((a.body as { variables?: unknown })?.variables ?? {})}`,
    )
    .join('\n');
  return fail(expected, raised.length === 0 ? 'the flow raised no user event' : `the flow raised:\n${list}`);
}
