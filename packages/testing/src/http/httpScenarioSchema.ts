import { s } from '@ringflow/dsl';

/**
 * The parts of a scenario file about webhooks, in the schema language of the file: the answers
 * (`http:`, for the file or a scenario) and the checks (`expect: { http }`). Keys (`"METHOD URL"`)
 * and what the schema cannot say (json with body, a body on a 204) are checked while reading
 * (readHttp.ts).
 */

const answerObject = s.object(
  {
    status: s.optional(s.integer({ min: 200, max: 599, description: 'The HTTP status (default 200).' })),
    json: s.optional(s.any({ description: 'A JSON body (content-type application/json).' })),
    body: s.optional(s.string({ description: 'A text body (content-type text/plain).' })),
    headers: s.optional(
      s.record(s.union([s.string(), s.number()]), { description: 'Headers of the answer.' }),
    ),
    after: s.optional(
      s.duration({ description: "Answered after this long, on the scenario's clock (default at once)." }),
    ),
  },
  { description: 'An answer: status, json or body, headers, after.' },
);

const answerSchema = s.union([
  s.string({
    refine: {
      code: 'invalid-value',
      test: (v) =>
        v === 'unreachable'
          ? undefined
          : 'expected unreachable, { status, json, body, headers, after }, or a list of those (one per successive request)',
    },
  }),
  answerObject,
]);

/** `http: { "GET https://crm.example/orders*": { status: 200, json: [...] } }`. */
export const httpAnswersSchema = s.record(s.union([answerSchema, s.array(answerSchema)]), {
  description: 'Answers of the webhooks the flows call, by "METHOD URL".',
});

/** `expect: { http: { "POST https://crm.example/tickets": { times: 1, json: {...} } } }`. */
export const httpExpectationSchema = s.record(
  s.union([
    s.null(),
    s.object({
      times: s.optional(s.integer({ min: 0, description: 'Exactly this many such requests.' })),
      json: s.optional(s.any({ description: 'The JSON body carries these fields (partial).' })),
      body: s.optional(s.string({ description: 'The body, as text (or /regex/).' })),
      headers: s.optional(s.record(s.any(), { description: 'Headers it carries (partial).' })),
    }),
  ]),
  { description: 'Requests the flows made by now, by "METHOD URL".' },
);
