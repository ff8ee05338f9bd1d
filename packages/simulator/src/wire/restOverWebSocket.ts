import type { SimRequest, SimResponse } from '../transport.ts';
import type { WireUser } from './authenticate.ts';
import { formatTimestamp } from '@ringflow/client';
import { parseQueryString } from './parseRequestTarget.ts';
import { interpretBody } from './readRequestBody.ts';
import { reasonPhrase, serializeResponse } from './serializeResponse.ts';

/** What answering a REST request sent over the event WebSocket needs from its connection. */
export interface RestOverWebSocketContext {
  /** Routes a request below the interface root exactly as an HTTP request would be routed. */
  readonly route: (request: SimRequest) => Promise<SimResponse>;
  /** The account the WebSocket authenticated as: read-only accounts may only GET. */
  readonly user: WireUser;
  /** The application named in the reply (the connection's first one). */
  readonly application: string;
  readonly asteriskId: () => Promise<string>;
  readonly now: () => number;
}

/**
 * Answers one text frame received on the event WebSocket. Servers since interface 2.0 accept REST
 * requests there (`{"type":"RESTRequest","transaction_id","request_id","method","uri",
 * "query_strings":[{name,value}],"content_type","message_body"}`) and reply with a `RESTResponse`
 * event carrying the status, reason phrase and body as a string. Replies follow the traced server,
 * including its refusals (bad JSON, unknown type, missing uri) and its 405 for a uri that starts
 * with `/` (the uri is relative to the interface root).
 *
 * @example
 * await answerRestRequest('{"type":"RESTRequest","request_id":"r1","method":"GET","uri":"asterisk/ping"}', ctx);
 * // { type: 'RESTResponse', request_id: 'r1', status_code: 200, reason_phrase: 'OK', message_body: '{"ping":"pong",...}', ... }
 */
export async function answerRestRequest(
  text: string,
  ctx: RestOverWebSocketContext,
): Promise<Record<string, unknown>> {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return envelope(ctx, {
      transaction_id: '',
      request_id: '',
      status_code: 400,
      reason_phrase: 'Failed to parse request message JSON',
      uri: '',
    });
  }
  const fields = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const ids = { transaction_id: text0(fields.transaction_id), request_id: text0(fields.request_id) };
  if (fields.type !== 'RESTRequest') return refusal(ctx, ids, '', 'Unknown request type.');
  const uri = text0(fields.uri);
  if (uri === '') return refusal(ctx, ids, '', "Empty or missing 'uri' property.");
  const method = text0(fields.method).toUpperCase();
  if (method === '') return refusal(ctx, ids, uri, "Empty or missing 'method' property.");

  const q = uri.indexOf('?');
  const path = q >= 0 ? uri.slice(0, q) : uri;
  const query = q >= 0 ? parseQueryString(uri.slice(q + 1)) : {};
  if (Array.isArray(fields.query_strings)) {
    for (const item of fields.query_strings as unknown[]) {
      const pair = (item ?? {}) as Record<string, unknown>;
      if (typeof pair.name === 'string') query[pair.name] = text0(pair.value);
    }
  }

  let response: SimResponse;
  if (path.startsWith('/')) {
    // The traced server resolves a leading slash to the interface root itself, which has no methods.
    response = { status: 405, body: { message: 'Invalid method' } };
  } else if (ctx.user.readOnly && method !== 'GET' && method !== 'OPTIONS') {
    response = { status: 403, body: { message: 'Write access denied' } };
  } else {
    const body = interpretBody(text0(fields.message_body), text0(fields.content_type) || undefined);
    response = await ctx.route({
      method,
      path: `/${path}`,
      query: { ...body.form, ...query },
      ...(body.body !== undefined ? { body: body.body } : {}),
      ...(body.bodyParseError ? { bodyParseError: true } : {}),
    });
  }

  const wire = serializeResponse(response);
  const reply: Record<string, unknown> = {
    ...ids,
    status_code: wire.status,
    reason_phrase: reasonPhrase(wire.status),
    uri: path,
  };
  if (wire.body.length > 0) {
    reply.content_type = wire.headers['Content-Type'];
    reply.message_body = wire.body.toString('utf8');
  }
  return envelope(ctx, reply);
}

function refusal(
  ctx: RestOverWebSocketContext,
  ids: { transaction_id: string; request_id: string },
  uri: string,
  message: string,
): Promise<Record<string, unknown>> {
  return envelope(ctx, {
    ...ids,
    status_code: 400,
    reason_phrase: 'Bad request',
    uri,
    content_type: 'application/json',
    message_body: JSON.stringify({ message }),
  });
}

async function envelope(
  ctx: RestOverWebSocketContext,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return {
    type: 'RESTResponse',
    ...fields,
    application: ctx.application,
    timestamp: formatTimestamp(ctx.now()),
    asterisk_id: await ctx.asteriskId(),
  };
}

function text0(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
