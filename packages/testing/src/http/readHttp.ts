import { type Infer, parseDuration, type Path } from '@ringflow/dsl';
import { type Expected, fromYamlExpected } from '../matchValue.ts';
import type { WebhookAnswer, WebhookAnswers, WebhookExpectation } from './FakeWebhooks.ts';
import type { httpAnswersSchema, httpExpectationSchema } from './httpScenarioSchema.ts';
import { keyForm, parseWebhookKey, type WebhookKey } from './webhookKeys.ts';

type AnswersDocument = Infer<typeof httpAnswersSchema>;
type AnswerDocument = Exclude<AnswersDocument[string], readonly unknown[]>;
type ExpectationsDocument = Infer<typeof httpExpectationSchema>;

/** How a reader tells a problem: at a path, about the key there or its value. */
export type Tell = (path: Path, message: string, target: 'key' | 'value') => void;

/** A scenario's expectation about one webhook. */
export interface HttpExpectationItem {
  readonly key: string;
  readonly expected: WebhookExpectation;
}

/**
 * `http:` as written, checked and converted: each key a request (`"METHOD URL"`), each answer with
 * what the schema cannot check (json and body together, a body on a 204). Parts with a problem are
 * left out, their problem told. `fits(path)`: the part has no shape problem.
 */
export function readHttpAnswers(
  map: AnswersDocument,
  path: Path,
  tell: Tell,
  fits: (path: Path) => boolean,
): Record<string, WebhookAnswer | readonly WebhookAnswer[]> {
  const out: Record<string, WebhookAnswer | readonly WebhookAnswer[]> = {};
  const forms = new Map<string, string>();
  for (const [text, given] of Object.entries(map)) {
    const p = [...path, text];
    const key = parseWebhookKey(text);
    if (typeof key === 'string') {
      tell(p, key, 'key');
      continue;
    }
    const form = keyForm(key);
    const twin = forms.get(form);
    if (twin !== undefined) {
      tell(p, `"${text}" answers the same requests as "${twin}" (the query's order does not matter)`, 'key');
      continue;
    }
    forms.set(form, text);
    if (!fits(p)) continue;
    if (Array.isArray(given)) {
      if (given.length === 0) {
        tell(
          p,
          'expected at least one answer, one per successive request: [{ status: 503 }, { status: 200 }]',
          'value',
        );
        continue;
      }
      const list = given.map((a, i) => readAnswer(a as AnswerDocument, [...p, i], tell));
      if (list.every((a) => a !== undefined)) out[text] = list as WebhookAnswer[];
    } else {
      const answer = readAnswer(given as AnswerDocument, p, tell);
      if (answer !== undefined) out[text] = answer;
    }
  }
  return out;
}

function readAnswer(answer: AnswerDocument, path: Path, tell: Tell): WebhookAnswer | undefined {
  if (typeof answer === 'string') return 'unreachable';
  if (answer.json !== undefined && answer.body !== undefined) {
    tell([...path, 'body'], 'give json (a JSON answer) or body (a text answer), not both', 'key');
    return undefined;
  }
  const status = answer.status ?? 200;
  if ([204, 205, 304].includes(status) && (answer.json !== undefined || answer.body !== undefined)) {
    tell(
      [...path, 'status'],
      `a ${status} answer has no body: drop json/body, or give another status`,
      'value',
    );
    return undefined;
  }
  return {
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.json !== undefined ? { json: answer.json } : {}),
    ...(answer.body !== undefined ? { body: answer.body } : {}),
    ...(answer.headers !== undefined
      ? { headers: Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, String(v)])) }
      : {}),
    ...(answer.after !== undefined ? { after: parseDuration(answer.after)! } : {}),
  };
}

/**
 * A scenario's answers over the file's: the scenario's replace the file's for the requests they
 * name. A key of the file is dropped when one of the scenario's covers it: the same request
 * (whatever its query's order), or a prefix (`*`) its URL begins with.
 */
export function mergeHttpAnswers(base: WebhookAnswers | undefined, own: WebhookAnswers): WebhookAnswers {
  const mine = Object.keys(own).flatMap((k) => {
    const key = parseWebhookKey(k);
    return typeof key === 'string' ? [] : [key];
  });
  const kept = Object.entries(base ?? {}).filter(([text]) => {
    const key = parseWebhookKey(text);
    return typeof key === 'string' || !mine.some((m) => covers(m, key));
  });
  return { ...Object.fromEntries(kept), ...own };
}

/** Whether `outer` names every request `inner` does. */
function covers(outer: WebhookKey, inner: WebhookKey): boolean {
  if (outer.method !== inner.method) return false;
  if (keyForm(outer) === keyForm(inner)) return true;
  if (!('prefix' in outer.url)) return false;
  const url = 'prefix' in inner.url ? inner.url.prefix : inner.url.exact.href;
  return url.startsWith(outer.url.prefix);
}

/** `expect: { http: { "POST https://...": { times, json, body, headers } } }`, keys checked. */
export function readHttpExpectations(
  map: ExpectationsDocument,
  path: Path,
  tell: Tell,
  fits: (path: Path) => boolean,
): HttpExpectationItem[] {
  const out: HttpExpectationItem[] = [];
  for (const [text, value] of Object.entries(map)) {
    const key = parseWebhookKey(text);
    if (typeof key === 'string') {
      tell([...path, text], key, 'key');
      continue;
    }
    if (!fits([...path, text])) continue;
    const v = value ?? {};
    out.push({
      key: text,
      expected: {
        ...(v.times !== undefined ? { times: v.times } : {}),
        ...(v.json !== undefined ? { json: fromYamlExpected(v.json) } : {}),
        ...(v.body !== undefined ? { body: fromYamlExpected(v.body) } : {}),
        ...(v.headers !== undefined
          ? { headers: fromYamlExpected(v.headers) as Readonly<Record<string, Expected>> }
          : {}),
      },
    });
  }
  return out;
}
