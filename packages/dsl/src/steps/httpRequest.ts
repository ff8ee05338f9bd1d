import type { Clock } from '@ringflow/client';
import { resolveTemplate, resolveValue } from '../compile/FlowContext.ts';
import type { ExpressionScope } from '../expr/Expression.ts';
import { parseDuration, s } from '../schema/s.ts';
import { HttpStepError } from './HttpStepError.ts';

/**
 * A webhook request as a flow writes it: the `http` step's parameters, and an agent tool backed
 * by HTTP (`tools: { name: { http: {...} } }`). One description, one validation, one way to send.
 */
export const httpRequestFields = {
  url: s.value(
    s.string({
      description: 'The URL (http or https).',
      pattern: /^https?:\/\/\S+$/,
      patternHint: 'an http:// or https:// URL',
    }),
  ),
  method: s.optional(
    s.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], {
      description: 'HTTP method (default GET, or POST with a body).',
    }),
  ),
  headers: s.optional(s.record(s.value(s.string()), { description: 'Request headers.' })),
  body: s.optional(
    s.template({
      description:
        'JSON body (sent as application/json): a literal, one expression, or a literal with { expr } values at any depth.',
    }),
  ),
  timeout: s.optional(
    s.duration({
      default: '10s',
      description: 'Give up after this long (reason timeout).',
    }),
  ),
};

/** The request fields as written (literals or `{ expr }`). */
export interface HttpRequestParams {
  readonly url: unknown;
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | undefined;
  readonly headers?: Readonly<Record<string, unknown>> | undefined;
  readonly body?: unknown;
  readonly timeout?: number | string | undefined;
}

/** A request with its expressions evaluated: what is sent. */
export interface HttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON-encoded, when there is a body. */
  readonly body?: string;
  readonly timeoutMs: number;
}

/** How a request went: the status and the answer (JSON parsed when it says it is JSON, else text). */
export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Evaluates a request's expressions in `scope` (throws what a failing expression throws).
 * @example resolveHttpRequest({ url: { expr: "'https://crm/' + call.caller.number" } }, scope)
 */
export function resolveHttpRequest(p: HttpRequestParams, scope: ExpressionScope): HttpRequest {
  const url = String(resolveValue(p.url as string, scope));
  const body = p.body === undefined ? undefined : resolveTemplate(p.body, scope);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.headers ?? {})) headers[k] = String(resolveValue(v, scope));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return {
    url,
    method: p.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    timeoutMs: parseDuration(p.timeout ?? '10s') ?? 10_000,
  };
}

/**
 * Sends a request and reads its answer within its timeout (on `clock`). Resolves with a 2xx
 * answer; rejects with an {@link HttpStepError} saying why not: `status` (with the status and the
 * parsed body), `timeout` or `network`. Aborting `signal` (the caller no longer wants the answer)
 * aborts the request; it then rejects as `network`, which nobody hears.
 *
 * @example const { status, body } = await sendHttpRequest(request, { fetch, clock: host.clock });
 */
export async function sendHttpRequest(
  request: HttpRequest,
  options: { readonly fetch?: typeof fetch; readonly clock: Clock; readonly signal?: AbortSignal },
): Promise<HttpAnswer> {
  const { url, timeoutMs } = request;
  const doFetch = options.fetch ?? globalThis.fetch;
  const controller = new AbortController();
  let timedOut = false;
  const timer = options.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const stop = () => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  const failure = (e: unknown) =>
    timedOut
      ? new HttpStepError(`no answer from ${url} within ${timeoutMs} ms`, 'timeout')
      : new HttpStepError(`could not reach ${url}: ${networkReason(e)}`, 'network');
  try {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: request.method,
        headers: request.headers,
        signal: controller.signal,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      text = await response.text();
    } catch (e) {
      throw failure(e);
    }
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok)
      throw new HttpStepError(`${url} answered ${response.status}`, 'status', response.status, parsed);
    return { status: response.status, body: parsed };
  } finally {
    options.clock.clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
}

/**
 * Why a request could not be made, in words a person can act on: undici's `fetch failed` says
 * nothing, its cause does (`connect ECONNREFUSED 127.0.0.1:9`, `getaddrinfo ENOTFOUND crm`).
 */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== '' && cause.message !== error.message)
    return `${error.message} (${cause.message})`;
  return error.message;
}
