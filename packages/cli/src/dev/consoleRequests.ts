/**
 * The requests the console page makes of `ringflow dev` (POST api/<path>, a JSON body), declared
 * once: the server reads each body into its type (see readRequest), the page's `post` takes the
 * same types. Shapes and their reading only, no Node and no DOM.
 */

import type { ClockState } from './feedMessages.ts';

/** Place a call: into `flow`, or (no flow) at `extension` through the dialplan. */
export interface CallRequest {
  readonly flow?: string;
  /** The number dialled (`s` when empty). */
  readonly extension?: string;
  /** The caller's number (default 1000). */
  readonly from?: string;
  readonly language?: string;
}

/** Acts on one call (or far end) by its channel id. */
export interface OnCallRequest {
  readonly call: string;
}

export interface DtmfRequest extends OnCallRequest {
  /** Keys 0-9, *, #, A-D. */
  readonly digits: string;
}

export interface TalkRequest extends OnCallRequest {
  readonly talking: boolean;
}

/** Words the caller says to the call's agent step (spoken as a scenario's `say:` speaks them). */
export interface SayRequest extends OnCallRequest {
  readonly text: string;
}

export interface RunScenariosRequest {
  readonly file: string;
  /** One scenario of the file; all of them when absent. */
  readonly scenario?: string;
}

/** What to do with the simulated time: stop it, take one step (paused), let it run again. */
export interface ClockRequest {
  readonly action: 'pause' | 'step' | 'resume';
}

/** What one step did: gave the flows one held event, or moved time to the next timer, or nothing. */
export type StepTaken =
  | { readonly kind: 'event'; readonly event: string }
  | { readonly kind: 'timer'; readonly at: number }
  | { readonly kind: 'nothing' };

/** The answer to a {@link ClockRequest}: the time's state, and what the step did (a step). */
export type ClockReply = ClockState & { readonly step?: StepTaken };

/** Each POST path of the console and the body it takes. */
export interface ConsoleRequests {
  readonly call: CallRequest;
  readonly dtmf: DtmfRequest;
  readonly talk: TalkRequest;
  readonly say: SayRequest;
  readonly hangup: OnCallRequest;
  readonly answer: OnCallRequest;
  readonly reject: OnCallRequest;
  readonly save: OnCallRequest;
  readonly 'scenarios/run': RunScenariosRequest;
  readonly clock: ClockRequest;
}

type Reader<T> = (body: Readonly<Record<string, unknown>>) => T;

const text = (body: Readonly<Record<string, unknown>>, field: string): string | undefined => {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`${field}: expected a string, got ${JSON.stringify(value)}`);
  return value;
};
const needed = (body: Readonly<Record<string, unknown>>, field: string): string => {
  const value = text(body, field);
  if (value === undefined) throw new Error(`missing field "${field}"`);
  return value;
};
const optional = <K extends string>(field: K, value: string | undefined) =>
  (value === undefined ? {} : { [field]: value }) as { readonly [P in K]?: string };

const onCall: Reader<OnCallRequest> = (b) => ({ call: needed(b, 'call') });

/** How each body is read and checked: a missing or mistyped field is refused, saying which. */
const READERS: { readonly [P in keyof ConsoleRequests]: Reader<ConsoleRequests[P]> } = {
  call: (b) => ({
    ...optional('flow', text(b, 'flow')),
    ...optional('extension', text(b, 'extension')),
    ...optional('from', text(b, 'from')),
    ...optional('language', text(b, 'language')),
  }),
  dtmf: (b) => {
    const digits = needed(b, 'digits');
    if (!/^[0-9A-D*#]+$/i.test(digits))
      throw new Error(`digits: expected keys 0-9, *, #, A-D, got "${digits}"`);
    return { call: needed(b, 'call'), digits };
  },
  talk: (b) => {
    const talking = b.talking;
    // `"true"` / `"false"` as the page sent them before the body was typed.
    if (talking !== true && talking !== false && talking !== 'true' && talking !== 'false')
      throw new Error(`talking: expected true or false, got ${JSON.stringify(talking)}`);
    return { call: needed(b, 'call'), talking: talking === true || talking === 'true' };
  },
  say: (b) => {
    const said = needed(b, 'text').trim();
    if (said === '') throw new Error('text: give the words the caller says');
    if (said.length > 500) throw new Error(`text: at most 500 characters, got ${said.length}`);
    return { call: needed(b, 'call'), text: said };
  },
  hangup: onCall,
  answer: onCall,
  reject: onCall,
  save: onCall,
  'scenarios/run': (b) => ({ file: needed(b, 'file'), ...optional('scenario', text(b, 'scenario')) }),
  clock: (b) => {
    const action = needed(b, 'action');
    if (action !== 'pause' && action !== 'step' && action !== 'resume')
      throw new Error(`action: expected pause, step or resume, got "${action}"`);
    return { action };
  },
};

/** Whether `path` is one of the console's POST paths. */
export function isConsoleRequest(path: string): path is keyof ConsoleRequests {
  return Object.hasOwn(READERS, path);
}

/**
 * The body of a POST to `path`, read into its type; throws saying which field is missing or wrong.
 *
 * @example readRequest('dtmf', JSON.parse(text)) // { call: 'call-1', digits: '1' }
 */
export function readRequest<P extends keyof ConsoleRequests>(path: P, body: unknown): ConsoleRequests[P] {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new Error('expected a JSON object as the body');
  return READERS[path](body as Readonly<Record<string, unknown>>);
}
