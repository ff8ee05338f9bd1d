import type { Clock } from '@ringflow/client';
import type { RecordedWebhook } from '../CallTimeline.ts';
import { formatOffset } from '../CallTimeline.ts';
import { toMs } from '../durations.ts';
import { describeExpected, type Expected, matchValue } from '../matchValue.ts';
import type { TestDuration } from '../TestCallOptions.ts';
import { answeringKey, keyMatches, parseWebhookKey, type WebhookKey } from './webhookKeys.ts';

/**
 * How the fake HTTP answers one request: `unreachable` (the connection fails), or an answer with
 * a status (default 200), a JSON body (`json`) or a text one (`body`), headers, given `after` a
 * while on the scenario's clock (default at once).
 */
export type WebhookAnswer =
  | 'unreachable'
  | {
      readonly status?: number;
      readonly json?: unknown;
      readonly body?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly after?: TestDuration;
    };

/**
 * The answers, by `"METHOD URL"` (see webhookKeys.ts for the matching rules); a list gives one
 * answer per successive request it answers, the last one repeating.
 */
export type WebhookAnswers = Readonly<Record<string, WebhookAnswer | readonly WebhookAnswer[]>>;

/** What a check of the requests asks (`expect: { http: { "POST https://...": {...} } }`). */
export interface WebhookExpectation {
  /** Exactly this many matching requests; default at least one. */
  readonly times?: number;
  /** The body, parsed as JSON, matches (partial objects, `/regex/` texts). */
  readonly json?: Expected;
  /** The body as text matches (a text, or a regular expression). */
  readonly body?: Expected;
  /** These headers (names in any case) match. */
  readonly headers?: Readonly<Record<string, Expected>>;
}

/** One request a flow made, and how it went. */
export interface WebhookRequest {
  /** Virtual ms since the scenario started. */
  readonly at: number;
  /** The scenario caller whose flow asked (when known). */
  readonly call?: string;
  readonly method: string;
  /** As sent (percent-encoded). */
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The body parsed, when it is JSON. */
  readonly json?: unknown;
  /** The key of the answer given, when something answers it. */
  readonly answeredBy?: string;
}

interface Entry {
  readonly key: WebhookKey;
  readonly answers: readonly CompiledAnswer[];
  asked: number;
}

type CompiledAnswer =
  | 'unreachable'
  | {
      readonly status: number;
      readonly body: string | null;
      readonly headers: Readonly<Record<string, string>>;
      readonly afterMs: number;
    };

/** Statuses whose answers carry no body. */
const NO_BODY = [204, 205, 304];

export interface FakeWebhooksOptions {
  /** The clock answers are given on (`after`) and requests are timed by. */
  readonly clock: Clock;
  /** Virtual ms since the scenario started; default since the fake was made. */
  readonly elapsed?: () => number;
  /** Where the requests and their ends go (the scenario's timeline). */
  readonly record?: (entry: RecordedWebhook) => void;
}

/**
 * The HTTP a scenario's flows reach: a `fetch` answering from a table of answers on the scenario's
 * clock, recording every request. A request nothing answers fails as a network error does, and is
 * kept (`unmatched()`) for the scenario to fail on; an answer `after` a while is aborted with the
 * request (its timeout, in virtual time).
 *
 * @example
 * const webhooks = new FakeWebhooks({ 'GET https://crm.example/orders*': { json: [] } }, { clock });
 * await testCalls(flow, { calls: { caller: {} }, fetch: webhooks.fetch });
 */
export class FakeWebhooks {
  private readonly entries: Entry[];
  private readonly asked: WebhookRequest[] = [];
  private readonly elapsed: () => number;

  constructor(
    answers: WebhookAnswers,
    private readonly options: FakeWebhooksOptions,
  ) {
    this.entries = Object.entries(answers).map(([text, given]) => {
      const key = parseWebhookKey(text);
      if (typeof key === 'string') throw new TypeError(`http: ${key}`);
      const list: readonly WebhookAnswer[] = Array.isArray(given) ? given : [given as WebhookAnswer];
      if (list.length === 0) throw new TypeError(`http: "${text}": give at least one answer`);
      return {
        key,
        answers: list.map((a, i) => compile(a, `http: "${text}"${Array.isArray(given) ? `[${i}]` : ''}`)),
        asked: 0,
      };
    });
    const t0 = options.clock.now();
    this.elapsed = options.elapsed ?? (() => options.clock.now() - t0);
  }

  /** The fake `fetch`, its requests labelled with no caller. */
  get fetch(): typeof fetch {
    return this.fetchFor(undefined);
  }

  /** A `fetch` whose requests are labelled with a scenario caller. */
  fetchFor(call: string | undefined): typeof fetch {
    return ((input: string | URL | Request, init?: RequestInit) =>
      this.answer(input, init, call)) as typeof fetch;
  }

  /** Every request, oldest first. */
  requests(): readonly WebhookRequest[] {
    return [...this.asked];
  }

  /** Requests nothing answered: a scenario fails on them. */
  unmatched(): readonly WebhookRequest[] {
    return this.asked.filter((r) => r.answeredBy === undefined);
  }

  /** What the fake answers, as written: for messages. */
  describeAnswers(): string {
    return this.entries.length === 0
      ? 'the scenario answers no request (give http: { "GET https://...": { status: 200, json: ... } })'
      : `the scenario answers:\n${this.entries.map((e) => `  ${e.key.text}`).join('\n')}`;
  }

  /** Fails (with `fail`) when some request was not answered, saying which and what is answered. */
  checkAnswered(fail: (expected: string, happened: string) => never): void {
    const missed = this.unmatched();
    if (missed.length === 0) return;
    fail(
      "an answer in the scenario's http: for every request the flow makes",
      `nothing answers ${missed.map((r) => `${r.method} ${r.url} (${describeWhen(r)})`).join(', ')}; ${this.describeAnswers()}`,
    );
  }

  /**
   * Checks the requests made so far against `key` (`"POST https://crm.example/tickets"`, the same
   * matching rules as answers) and what they carried; `call` keeps one caller's. Returns the
   * matching requests.
   */
  expect(
    key: string,
    expected: WebhookExpectation,
    fail: (expected: string, happened: string) => never,
    call?: string,
  ): WebhookRequest[] {
    const parsed = parseWebhookKey(key);
    if (typeof parsed === 'string') throw new TypeError(`http: ${parsed}`);
    const mine = this.asked.filter((r) => call === undefined || r.call === call);
    const named = mine.filter((r) => keyMatches(parsed, r.method, r.url));
    const found = named.filter((r) => carries(r, expected));
    const ok = expected.times === undefined ? found.length > 0 : found.length === expected.times;
    if (ok) return found;
    const what = [
      `a request ${key}`,
      expected.json !== undefined ? `with json ${describeExpected(expected.json)}` : '',
      expected.body !== undefined ? `with body ${describeExpected(expected.body)}` : '',
      expected.headers !== undefined ? `with headers ${describeExpected(expected.headers)}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const times =
      expected.times === undefined ? '' : `, ${expected.times} time${expected.times === 1 ? '' : 's'}`;
    const list = (rs: readonly WebhookRequest[]) => rs.map((r) => `  ${describeRequest(r)}`).join('\n');
    const happened =
      found.length > 0
        ? `it was asked ${found.length} time${found.length === 1 ? '' : 's'}:\n${list(found)}`
        : named.length > 0
          ? `it was asked with other data:\n${list(named)}`
          : mine.length > 0
            ? `it was never asked; the requests were:\n${list(mine)}`
            : 'the flow made no webhook request';
    return fail(`${what}${times}`, happened);
  }

  private async answer(
    input: string | URL | Request,
    init: RequestInit | undefined,
    call: string | undefined,
  ) {
    const request = new Request(input, init);
    const text = request.body === null ? undefined : await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const entry = answeringKeyEntry(this.entries, request.method, request.url);
    const asked: WebhookRequest = {
      at: this.elapsed(),
      ...(call !== undefined ? { call } : {}),
      method: request.method,
      url: request.url,
      headers,
      ...(text !== undefined ? { body: text, ...jsonOf(text) } : {}),
      ...(entry ? { answeredBy: entry.key.text } : {}),
    };
    this.asked.push(asked);
    const note = (what: RecordedWebhook['what'], extra: { status?: number; body?: string } = {}) =>
      this.options.record?.({
        kind: 'webhook',
        at: this.elapsed(),
        ...(call !== undefined ? { call } : {}),
        what,
        method: asked.method,
        url: asked.url,
        ...extra,
      });
    note('asked', text !== undefined ? { body: text } : {});
    if (request.signal.aborted) {
      note('aborted');
      throw request.signal.reason;
    }
    if (!entry) {
      note('unmatched');
      throw new TypeError('fetch failed', {
        cause: new Error(`nothing in the scenario's http: answers ${asked.method} ${asked.url}`),
      });
    }
    const answer = entry.answers[Math.min(entry.asked, entry.answers.length - 1)]!;
    entry.asked += 1;
    if (answer === 'unreachable') {
      note('unreachable');
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error(`connect ECONNREFUSED ${new URL(asked.url).host}`), {
          code: 'ECONNREFUSED',
        }),
      });
    }
    const respond = () => {
      note('answered', { status: answer.status });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    };
    if (answer.afterMs === 0) return respond();
    // Given later on the scenario's clock, unless the flow stops waiting first.
    const { clock } = this.options;
    const signal = request.signal;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        clock.clearTimeout(timer);
        note('aborted');
        reject(signal.reason);
      };
      const timer = clock.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(respond());
      }, answer.afterMs);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function answeringKeyEntry(entries: readonly Entry[], method: string, url: string): Entry | undefined {
  const key = answeringKey(
    entries.map((e) => e.key),
    method,
    url,
  );
  return entries.find((e) => e.key === key);
}

function compile(answer: WebhookAnswer, where: string): CompiledAnswer {
  if (answer === 'unreachable') return answer;
  if (answer === null || typeof answer !== 'object')
    throw new TypeError(`${where}: expected unreachable or { status, json, body, headers, after }`);
  const status = answer.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 599)
    throw new TypeError(
      `${where}.status: expected an HTTP status from 200 to 599, got ${String(answer.status)}`,
    );
  if (answer.json !== undefined && answer.body !== undefined)
    throw new TypeError(`${where}: give json or body, not both`);
  const hasBody = answer.json !== undefined || answer.body !== undefined;
  if (hasBody && NO_BODY.includes(status))
    throw new TypeError(`${where}: a ${status} answer has no body (drop json/body)`);
  const headers: Record<string, string> = { ...answer.headers };
  const named = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
  if (answer.json !== undefined && !named('content-type')) headers['content-type'] = 'application/json';
  if (answer.body !== undefined && !named('content-type')) headers['content-type'] = 'text/plain';
  return {
    status,
    body: answer.json !== undefined ? JSON.stringify(answer.json) : (answer.body ?? null),
    headers,
    afterMs: answer.after === undefined ? 0 : toMs(answer.after, `${where}.after`),
  };
}

function jsonOf(text: string): { json?: unknown } {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return {};
  }
}

function carries(r: WebhookRequest, expected: WebhookExpectation): boolean {
  if (expected.json !== undefined && (r.json === undefined || !matchValue(expected.json, r.json)))
    return false;
  if (expected.body !== undefined && !matchValue(expected.body, r.body)) return false;
  if (expected.headers !== undefined) {
    const lower = Object.fromEntries(Object.entries(expected.headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (!matchValue(lower, r.headers)) return false;
  }
  return true;
}

function describeWhen(r: WebhookRequest): string {
  return `${r.call !== undefined ? `${r.call}, ` : ''}at ${formatOffset(r.at)}`;
}

function describeRequest(r: WebhookRequest): string {
  const body =
    r.body === undefined ? '' : ` body=${r.body.length > 120 ? `${r.body.slice(0, 117)}...` : r.body}`;
  return `${formatOffset(r.at)}${r.call !== undefined ? ` [${r.call}]` : ''} ${r.method} ${r.url}${body}`;
}
