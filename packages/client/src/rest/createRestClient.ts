import { systemClock } from '../clock/Clock.ts';
import { handleSpecs } from '../description/handles.ts';
import type { HandleName } from '../description/handles.ts';
import { findOperation, RESOURCE_NAMES } from '../description/index.ts';
import type { OperationSpec, ResourceName } from '../description/spec.ts';
import { InvalidParamsError } from '../errors/InvalidParamsError.ts';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { bindHandle, bindResource } from './bindOperations.ts';
import type { OperationCaller } from './bindOperations.ts';
import { checkRestClientOptions } from './checkRestClientOptions.ts';
import { encodePlannedRequest } from './encodeRequest.ts';
import { findParamIssues } from './findParamIssues.ts';
import { operationPlan } from './operationPlan.ts';
import type { OperationPlan } from './operationPlan.ts';
import { paramsAreValid } from './paramsAreValid.ts';
import { PendingRequest } from './PendingRequest.ts';
import type { PendingRequestContext } from './PendingRequest.ts';
import type { RequestOptions } from './requestOptions.ts';
import type { RestClient, RestClientOptions } from './RestClient.ts';
import type { TransportRequest } from './RestTransport.ts';
import { runWithDeadline } from './runWithDeadline.ts';
import { RESOURCE_LISTING_PATH, segmentFromResourceListing } from './segmentFromResourceListing.ts';
import type { ServerSegment } from './ServerSegment.ts';
import { UndiciTransport } from './UndiciTransport.ts';

/** Default per-request timeout: long enough for a slow originate, short enough to notice a dead server. */
const DEFAULT_TIMEOUT_MS = 10_000;

/** The operation name reported to `onRequest` for the segment detection request. */
export const RESOURCE_LISTING_OPERATION = 'apiDocs.resourceListing';

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Operations looked up by key so far; at most one entry per operation of the description. */
const operationsByKey = new Map<string, OperationSpec>();

function lookUpOperation(operation: string | OperationSpec): OperationSpec {
  if (typeof operation !== 'string') return operation;
  const known = operationsByKey.get(operation);
  if (known) return known;
  const dot = operation.indexOf('.');
  const op =
    dot > 0 ? findOperation(operation.slice(0, dot) as ResourceName, operation.slice(dot + 1)) : undefined;
  if (!op) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `unknown operation '${operation}'; expected 'resource.name' of the description, such as 'channels.answer'`,
    );
  }
  operationsByKey.set(operation, op);
  return op;
}

/**
 * Creates the typed REST client of one server. Every operation of the interface description is
 * a method (`client.channels.originate`), and handles bind ids (`client.channel(id).answer()`).
 * Parameters are validated before anything is sent; every failure is a `RingflowError` with a
 * stable `code` (`INVALID_PARAMS`, `HTTP_ERROR`, `TIMEOUT`, `ABORTED`, `NETWORK`, `CLOSED`).
 *
 * @example
 * const client = createRestClient({ url: 'http://127.0.0.1:8088/ari', username: 'demo', password: 'demo' });
 * const channel = await client.channels.originate({
 *   endpoint: 'PJSIP/alice', app: 'my-app', channelId: 'call-1', variables: { 'CALLERID(name)': 'Front desk' },
 * });
 * await client.channel(channel.id).answer();
 * await client.close();
 */
export function createRestClient(options: RestClientOptions): RestClient {
  checkRestClientOptions(options);
  const clock = options.clock ?? systemClock;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport =
    options.transport ??
    new UndiciTransport({
      url: options.url,
      username: options.username,
      password: options.password,
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.connections ? { connections: options.connections } : {}),
      ...(options.tls ? { tls: options.tls } : {}),
    });
  const context: PendingRequestContext = { transport, clock, onRequest: options.onRequest };
  let closed = false;
  let segment: ServerSegment | undefined =
    options.segment === 'asterisk' || options.segment === 'core' ? options.segment : undefined;
  let detecting: Promise<ServerSegment> | undefined;

  /**
   * Asks the server which segment it uses. A listing read (or a 404: no listing is published)
   * settles it for the life of the client; any other failure falls back to `asterisk` for this
   * call only, so a server that was briefly down is asked again.
   */
  async function detectSegment(): Promise<ServerSegment> {
    const request: TransportRequest = { method: 'GET', path: RESOURCE_LISTING_PATH, query: [] };
    try {
      return await PendingRequest.start(
        context,
        RESOURCE_LISTING_OPERATION,
        request,
        defaultTimeoutMs,
        undefined,
        (_request, reply): ServerSegment => {
          if (reply.status >= 200 && reply.status < 300) {
            segment = segmentFromResourceListing(reply.body) ?? 'asterisk';
            return segment;
          }
          if (reply.status === 404) segment = 'asterisk';
          return 'asterisk';
        },
      );
    } catch {
      return 'asterisk';
    }
  }

  function resolveSegment(requestOptions?: RequestOptions): Promise<ServerSegment> {
    if (segment) return Promise.resolve(segment);
    if (closed) return Promise.reject(closedError('resolveSegment'));
    if (!detecting) {
      detecting = detectSegment().finally(() => {
        detecting = undefined;
      });
    }
    const shared = detecting;
    // Concurrent first calls share one detection; each caller can still cancel its own wait.
    return runWithDeadline(() => shared, {
      clock,
      timeoutMs: 0,
      signal: requestOptions?.signal,
      what: 'server segment detection',
    });
  }

  function closedError(operation: string): RingflowError {
    return new RingflowError(ErrorCode.CLOSED, `${operation}: the REST client is closed; create a new one`);
  }

  /** Checks a call before anything is sent; returns the parameters to encode. */
  function checkCall(
    plan: OperationPlan,
    params: Readonly<Record<string, unknown>> | undefined,
    requestOptions: RequestOptions | undefined,
  ): Readonly<Record<string, unknown>> {
    const { key } = plan;
    if (plan.op.upgrade) {
      throw new RingflowError(ErrorCode.CONFIG, `${key} opens the event stream; use the event stream client`);
    }
    if (closed) throw closedError(key);
    if (params !== undefined && !isPlainObject(params)) {
      throw new InvalidParamsError(key, [
        { param: '(params)', kind: 'type', message: `${key}: parameters must be an object of named values` },
      ]);
    }
    const given = params ?? {};
    if (!paramsAreValid(plan, given)) {
      const issues = findParamIssues(plan, given);
      if (issues.length > 0) throw new InvalidParamsError(key, issues);
    }
    const timeoutMs = requestOptions?.timeoutMs;
    if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0)) {
      throw new RingflowError(ErrorCode.CONFIG, `${key}: timeoutMs must be a number >= 0, got ${timeoutMs}`);
    }
    if (requestOptions?.signal?.aborted) {
      throw new RingflowError(ErrorCode.ABORTED, `${key}: cancelled by the caller before it was sent`);
    }
    return given;
  }

  function send(
    plan: OperationPlan,
    params: Readonly<Record<string, unknown>>,
    seg: ServerSegment,
    requestOptions: RequestOptions | undefined,
  ): Promise<unknown> {
    return PendingRequest.start(
      context,
      plan.key,
      encodePlannedRequest(plan, params, seg),
      requestOptions?.timeoutMs ?? defaultTimeoutMs,
      requestOptions?.signal,
      plan.interpret,
    );
  }

  const call: OperationCaller = (op, params, requestOptions) => {
    const plan = operationPlan(op);
    let given: Readonly<Record<string, unknown>>;
    try {
      given = checkCall(plan, params, requestOptions);
    } catch (error) {
      return Promise.reject(error);
    }
    if (op.resource !== 'asterisk') return send(plan, given, 'asterisk', requestOptions);
    if (segment) return send(plan, given, segment, requestOptions);
    return resolveSegment(requestOptions).then((seg) => send(plan, given, seg, requestOptions));
  };

  const resources = Object.fromEntries(RESOURCE_NAMES.map((r) => [r, bindResource(r, call)]));
  const handles = Object.fromEntries(
    (Object.keys(handleSpecs) as HandleName[]).map((h) => [h, bindHandle(h, call)]),
  );
  const client = {
    ...resources,
    core: resources.asterisk,
    ...handles,
    request: (
      operation: string | OperationSpec,
      params?: Readonly<Record<string, unknown>>,
      o?: RequestOptions,
    ) => {
      let op: OperationSpec;
      try {
        op = lookUpOperation(operation);
      } catch (error) {
        return Promise.reject(error);
      }
      return call(op, params, o);
    },
    resolveSegment,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await transport.close?.();
    },
  };
  // The method tables are built from the description at run time; the generated interfaces type them.
  return Object.freeze(client) as unknown as RestClient;
}
