import { type OperationSpec, operations } from '@ringflow/client';
import { pathSegments } from './pathSegments.ts';

type Segment = { readonly literal: string } | { readonly param: string };

interface Route {
  readonly op: OperationSpec;
  readonly segments: readonly Segment[];
  /** Literal segments as 1, parameters as 0: routes with more literals first win. */
  readonly shape: string;
}

/** The outcome of routing: the operation and its raw path parameters, or the error reply. */
export type RouteMatch =
  | { readonly op: OperationSpec; readonly pathParams: Record<string, string> }
  | { readonly status: number; readonly message: string };

function parseTemplate(path: string): Segment[] {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      const m = /^\{(\w+)\}$/.exec(s);
      return m ? { param: m[1]! } : { literal: s };
    });
}

function toRoute(op: OperationSpec, path: string): Route {
  const segments = parseTemplate(path);
  return { op, segments, shape: segments.map((s) => ('literal' in s ? '1' : '0')).join('') };
}

/**
 * Every route of the interface, derived from the description: each operation at its own path,
 * the server-level resource also under `/core` (the specification's name for `/asterisk`), and
 * the short dynamic-configuration form `/core/{configClass}/{objectType}/{id}`.
 */
function buildRoutes(): Route[] {
  const routes: Route[] = [];
  for (const op of operations) {
    if (op.upgrade) continue;
    routes.push(toRoute(op, op.path));
    if (op.path.startsWith('/asterisk/')) {
      routes.push(toRoute(op, `/core/${op.path.slice('/asterisk/'.length)}`));
      const dynamic = '/asterisk/config/dynamic/';
      if (op.path.startsWith(dynamic)) routes.push(toRoute(op, `/core/${op.path.slice(dynamic.length)}`));
    }
  }
  return routes;
}

const routes = buildRoutes();

/**
 * Routes by segment count and first segment (`2 channels`), in table order, so a request is
 * matched against the handful that can fit instead of all ~150 (the router was ~2% of the
 * simulator process in `npm run bench`). Every template starts with a literal resource name;
 * should one ever start with a parameter, `indexed` is false and every route is scanned.
 */
const routesByHead = new Map<string, Route[]>();
const indexed = routes.every((route) => {
  const first = route.segments[0];
  return first !== undefined && 'literal' in first;
});
for (const route of routes) {
  const first = route.segments[0];
  if (!first || !('literal' in first)) continue;
  const key = `${route.segments.length} ${first.literal}`;
  const list = routesByHead.get(key);
  if (list) list.push(route);
  else routesByHead.set(key, [route]);
}
const eventStreamPaths = new Set(operations.filter((op) => op.upgrade).map((op) => op.path));

function matches(route: Route, parts: readonly string[]): boolean {
  if (route.segments.length !== parts.length) return false;
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i]!;
    if ('literal' in seg && seg.literal !== parts[i]) return false;
  }
  return true;
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Whether the path is the beginning of a longer route (`/recordings/live` of `/recordings/live/{name}`). */
function isInterior(parts: readonly string[]): boolean {
  return routes.some(
    (route) =>
      route.segments.length > parts.length &&
      parts.every((part, i) => {
        const seg = route.segments[i]!;
        return !('literal' in seg) || seg.literal === part;
      }),
  );
}

/** Finds the best route of a path; the most literal shape wins, so fixed routes beat templates. */
function bestShape(parts: readonly string[]): Route[] {
  let best: Route[] = [];
  const candidates = indexed ? (routesByHead.get(`${parts.length} ${parts[0]}`) ?? []) : routes;
  for (const route of candidates) {
    if (!matches(route, parts)) continue;
    if (best.length === 0 || route.shape > best[0]!.shape) best = [route];
    else if (route.shape === best[0]!.shape) best.push(route);
  }
  return best;
}

/**
 * Routes a request path (below the interface root, not decoded) to an operation, with the
 * real server's refusals: 404 `Resource not found`, 405 `Invalid method`, and the hint for a
 * trailing slash.
 *
 * @example
 * routeRequest('POST', '/channels/abc/answer') // { op: channels.answer, pathParams: { channelId: 'abc' } }
 */
export function routeRequest(method: string, path: string): RouteMatch {
  if (path.length > 1 && path.endsWith('/')) {
    const trimmed = path.replace(/\/+$/, '');
    const parts = trimmed.split('/').filter((s) => s !== '');
    if (bestShape(parts).length > 0 || eventStreamPaths.has(trimmed)) {
      return { status: 404, message: `ARI URLs do not end with a slash. Try /ari${trimmed}` };
    }
  }
  // Segments after an empty one are not read (`/channels//x` is `/channels`).
  const rawParts = pathSegments(path);
  if (rawParts.length === 0) return { status: 405, message: 'Invalid method' };
  if (eventStreamPaths.has(`/${rawParts.join('/')}`)) {
    return { status: 426, message: 'Upgrade Required: the event stream is a WebSocket' };
  }
  const candidates = bestShape(rawParts);
  if (candidates.length === 0) {
    // A path on the way to routes (`/recordings/live`, `/asterisk`) is a resource of the real
    // router's tree without handlers: every method is refused there, none is 404.
    return isInterior(rawParts)
      ? { status: 405, message: 'Invalid method' }
      : { status: 404, message: 'Resource not found' };
  }
  const route = candidates.find((r) => r.op.method === method.toUpperCase());
  if (!route) return { status: 405, message: 'Invalid method' };
  const pathParams: Record<string, string> = {};
  route.segments.forEach((seg, i) => {
    if ('param' in seg) pathParams[seg.param] = decodeSegment(rawParts[i]!);
  });
  return { op: route.op, pathParams };
}
