import type { Dialplan, ResolvedLocation } from './Dialplan.ts';
import { findPriority } from './findPriority.ts';

/** The parameters of ARI `POST /channels/{id}/continue`. */
export interface ContinueRequest {
  readonly context?: string;
  readonly extension?: string;
  readonly priority?: number;
  readonly label?: string;
}

export type ContinueResolution =
  | { readonly kind: 'ok'; readonly target: ResolvedLocation }
  /** 404 "Requested label can not be found". */
  | { readonly kind: 'label-not-found' }
  /** 400 "Requested priority is illegal" (a label of 0). */
  | { readonly kind: 'illegal-priority' };

/**
 * Where `continue` sends a channel, by the real server's rules:
 * - no context: stay in the current context (and extension, unless one is given);
 *   a context without extension means extension `s`;
 * - a label wins over a priority; a numeric label is a priority; an unknown label is refused;
 * - no label and no priority: the next priority when neither context nor extension was given,
 *   else priority 1.
 * A target that does not exist is NOT refused here: the channel goes there and hangs up.
 *
 * @example resolveContinueTarget(dp, { context: 'default', exten: 's', priority: 1 }, { context: 'default', extension: '100', label: 'menu' })
 * // { kind: 'ok', target: { context: 'default', exten: '100', priority: 2 } }
 */
export function resolveContinueTarget(
  dialplan: Dialplan,
  current: ResolvedLocation,
  request: ContinueRequest,
): ContinueResolution {
  const context = request.context || current.context;
  const exten = request.context ? request.extension || 's' : request.extension || current.exten;
  let priority: number;
  if (request.label) {
    if (/^\s*[-+]?\d+/.test(request.label)) {
      priority = Number.parseInt(request.label, 10);
    } else {
      const found = findPriority(dialplan, context, exten, request.label);
      if (found.kind !== 'found') return { kind: 'label-not-found' };
      priority = found.priority.priority;
    }
    if (priority === 0) return { kind: 'illegal-priority' };
  } else if (request.priority) {
    priority = request.priority;
  } else if (!request.context && !request.extension) {
    priority = current.priority + 1;
  } else {
    priority = 1;
  }
  return { kind: 'ok', target: { context, exten, priority } };
}
