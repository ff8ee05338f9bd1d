import { type OperationSpec, operations } from '@ringflow/client/interface';

interface CompiledRoute {
  readonly op: OperationSpec;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  /** Literal segments: a literal wins over a placeholder (`/channels/create` is not originateWithId). */
  readonly literals: number;
}

const routes: CompiledRoute[] = operations
  .filter((op) => op.upgrade === undefined)
  .map((op) => {
    const names: string[] = [];
    const segments = op.path.split('/').filter(Boolean);
    const source = segments
      .map((segment) => {
        const m = /^\{(\w+)\}$/.exec(segment);
        if (!m) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        names.push(m[1]!);
        return '([^/]+)';
      })
      .join('/');
    return {
      op,
      pattern: new RegExp(`^/${source}/?$`),
      names,
      literals: segments.filter((s) => !s.startsWith('{')).length,
    };
  })
  .sort((a, b) => b.literals - a.literals);

/** An HTTP request recognised as an operation of the interface. */
export interface RecognisedOperation {
  /** `resource.name`, e.g. `channels.play`. */
  readonly operation: string;
  readonly pathParams: Readonly<Record<string, string>>;
}

/**
 * Finds which operation of the interface a request is, from its method and path (the server's
 * `/asterisk/...` and the specification's `/core/...` are the same resource).
 *
 * @example
 * operationOfRequest('POST', '/channels/c1/play'); // { operation: 'channels.play', pathParams: { channelId: 'c1' } }
 */
export function operationOfRequest(method: string, path: string): RecognisedOperation | undefined {
  const normalised = path.replace(/^\/core(\/|$)/, '/asterisk$1');
  for (const route of routes) {
    if (route.op.method !== method.toUpperCase()) continue;
    const m = route.pattern.exec(normalised);
    if (!m) continue;
    const pathParams: Record<string, string> = {};
    route.names.forEach((name, i) => {
      pathParams[name] = decodeURIComponent(m[i + 1]!);
    });
    return { operation: `${route.op.resource}.${route.op.name}`, pathParams };
  }
  return undefined;
}
