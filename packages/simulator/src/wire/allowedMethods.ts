import { operations } from '@ringflow/client';
import { pathSegments } from '../routing/pathSegments.ts';

/** The order the real server lists methods in an `Allow` header. */
const METHOD_ORDER = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE'];

interface RouteNode {
  readonly literal: Map<string, RouteNode>;
  wildcard?: RouteNode;
  readonly methods: Set<string>;
}

const root = buildRouteTree();

/**
 * The `Allow` list of a path below the interface root (`/channels/abc` -> `['OPTIONS', 'GET',
 * 'POST', 'DELETE']`), or `undefined` when no resource lives there. Used when the core answers 405
 * or an OPTIONS request without saying which methods exist. Resolves like the real router: at each
 * segment a literal name beats a `{param}`, without backtracking; `/core/...` is the same tree as
 * `/asterisk/...`, and `/core/{class}/{type}/{id}` reaches dynamic configuration when no fixed
 * route matches.
 *
 * @example
 * allowedMethods('/channels'); // ['OPTIONS', 'GET', 'POST']
 */
export function allowedMethods(path: string): string[] | undefined {
  if (path.length > 1 && path.endsWith('/')) return undefined;
  const segments = pathSegments(path);
  if (segments.length === 0) return undefined;
  if (segments[0] === 'core') {
    const fixed = resolve(['asterisk', ...segments.slice(1)]);
    if (fixed || segments.length !== 4) return fixed;
    return resolve(['asterisk', 'config', 'dynamic', ...segments.slice(1)]);
  }
  return resolve(segments);
}

function resolve(segments: readonly string[]): string[] | undefined {
  let node: RouteNode | undefined = root;
  for (const segment of segments) {
    if (segment === '') return undefined;
    node = node.literal.get(segment) ?? node.wildcard;
    if (!node) return undefined;
  }
  if (node.methods.size === 0) return undefined;
  return ['OPTIONS', ...METHOD_ORDER.filter((m) => node.methods.has(m))];
}

function buildRouteTree(): RouteNode {
  const tree = newNode();
  for (const op of operations) {
    let node = tree;
    for (const segment of op.path.split('/').slice(1)) {
      if (/^\{\w+\}$/.test(segment)) {
        node.wildcard ??= newNode();
        node = node.wildcard;
      } else {
        let next = node.literal.get(segment);
        if (!next) {
          next = newNode();
          node.literal.set(segment, next);
        }
        node = next;
      }
    }
    node.methods.add(op.method);
  }
  return tree;
}

function newNode(): RouteNode {
  return { literal: new Map(), methods: new Set() };
}
