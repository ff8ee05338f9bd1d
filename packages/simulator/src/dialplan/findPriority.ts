import type { Dialplan, DialplanContext, DialplanExtension, DialplanPriority } from './Dialplan.ts';
import { matchExtension } from './extensionPattern.ts';

/** Where a (context, exten, priority) lookup landed. */
export type PriorityLookup =
  | {
      readonly kind: 'found';
      /** The context that holds the extension (an included one, possibly). */
      readonly context: DialplanContext;
      readonly extension: DialplanExtension;
      readonly priority: DialplanPriority;
    }
  | { readonly kind: 'no-context' }
  /** No extension of the context (or its includes) matches the dialled string. */
  | { readonly kind: 'no-extension' }
  /** Some extension matches, but none has that priority number. */
  | { readonly kind: 'no-priority' }
  /** Some extension matches, but none has that label (ARI answers 404 "Requested label can not be found"). */
  | { readonly kind: 'no-label' };

interface ContextIndex {
  readonly exact: ReadonlyMap<string, DialplanExtension>;
  readonly patterns: readonly DialplanExtension[];
}

const indexes = new WeakMap<DialplanContext, ContextIndex>();

function indexOf(context: DialplanContext): ContextIndex {
  let index = indexes.get(context);
  if (!index) {
    const exact = new Map<string, DialplanExtension>();
    for (const e of context.extensions) if (!e.isPattern) exact.set(e.name.replaceAll('-', ''), e);
    index = { exact, patterns: context.extensions.filter((e) => e.isPattern) };
    indexes.set(context, index);
  }
  return index;
}

/** Extensions of one context (not its includes) matching `exten`, in precedence order. */
function* matching(context: DialplanContext, exten: string): Generator<DialplanExtension> {
  const index = indexOf(context);
  // A dialled string starting with '_' is compared as written, never as a pattern.
  const exact = index.exact.get(exten.replaceAll('-', ''));
  if (exact) yield exact;
  for (const pattern of index.patterns) if (matchExtension(pattern.name, exten)) yield pattern;
}

/**
 * Finds the priority (number or label) that runs for a dialled `exten` in `context`, as the
 * real server does: extensions of the context in precedence order (exact names, then patterns
 * from most to least specific; see extensionPattern.ts), the first that matches AND has the
 * priority wins; then each `include`d context in order, depth first.
 *
 * @example findPriority(dialplan, 'default', '100', 'menu') // { kind: 'found', priority: { priority: 2, ... } }
 */
export function findPriority(
  dialplan: Dialplan,
  context: string,
  exten: string,
  priority: number | string,
): PriorityLookup {
  if (!dialplan.contexts.has(context)) return { kind: 'no-context' };
  let matched = false;
  const visited = new Set<string>();
  const search = (name: string): PriorityLookup | undefined => {
    const ctx = dialplan.contexts.get(name);
    if (!ctx || visited.has(name)) return undefined;
    visited.add(name);
    for (const extension of matching(ctx, exten)) {
      matched = true;
      const number = typeof priority === 'number' ? priority : extension.labels.get(priority);
      const found = number === undefined ? undefined : extension.priorities.get(number);
      if (found) return { kind: 'found', context: ctx, extension, priority: found };
    }
    for (const include of ctx.includes) {
      const result = search(include.context);
      if (result) return result;
    }
    return undefined;
  };
  return (
    search(context) ?? {
      kind: matched ? (typeof priority === 'number' ? 'no-priority' : 'no-label') : 'no-extension',
    }
  );
}

/**
 * The extension a dialled string selects in a context (following includes), or undefined.
 *
 * @example findExtension(dialplan, 'from-callers', '5551234')?.name // '_X.'
 */
export function findExtension(
  dialplan: Dialplan,
  context: string,
  exten: string,
): { readonly context: DialplanContext; readonly extension: DialplanExtension } | undefined {
  const visited = new Set<string>();
  const search = (name: string): { context: DialplanContext; extension: DialplanExtension } | undefined => {
    const ctx = dialplan.contexts.get(name);
    if (!ctx || visited.has(name)) return undefined;
    visited.add(name);
    const first = matching(ctx, exten).next();
    if (!first.done) return { context: ctx, extension: first.value };
    for (const include of ctx.includes) {
      const result = search(include.context);
      if (result) return result;
    }
    return undefined;
  };
  return search(context);
}
