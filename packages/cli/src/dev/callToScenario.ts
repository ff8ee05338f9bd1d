import { basename, dirname, join, relative } from 'node:path';
import type { BotScript, BotSession, BotTurn } from '@ringflow/testing';
import { CALLER_WORD_MS } from '@ringflow/testing/scenario-files';
import { Document } from 'yaml';
import type { AgentTurn } from './feedMessages.ts';
import type { CallerAction, FlowRequest, RecordedCall } from './RecordedCall.ts';

/** The caller's channel in a scenario (its first call is `c1`). */
const SCENARIO_CHANNEL = 'c1';
/** How long a scenario's `press` takes per key (100 ms tone, 100 ms gap; see FlowTestCall.press). */
const PRESS_MS_PER_KEY = 200;
/** Parameters that name the application: the console's is the flow's name, a scenario's is its own. */
const APPLICATION_PARAMS = new Set(['app', 'application', 'appArgs']);
/** Requests that only read: what they returned is not something the flow did. */
const READ_OPERATIONS = new Set(['channels.getChannelVar', 'bridges.get']);
/** A pattern as `expectedText` writes them (`/^...$/`), with its body. */
const PATTERN = /^\/\^(.*)\$\/$/s;
/** The kinds of ids the runtime picks (`playback-<uuid>`); a scenario's are different ones. */
const ID_KIND = /^(channel|bridge|playback|recording|snoop)-/;

/** A scenario file made from a call: its text and the document it was written from. */
export interface RecordedScenario {
  readonly name: string;
  readonly yaml: string;
  readonly document: Record<string, unknown>;
}

/**
 * Turns a call the console saw into a scenario file (`<flow>.test.yaml` format) that replays the
 * caller's side — keys at their times, talk, hang-up, the far ends answering (after the time it
 * took) or refusing — and expects what the flow did: how the call ended, every state in order, and
 * each request it made with its arguments and how many times. `flowFileFrom` is the folder the file
 * will be written to (the flow is named relative to it); `recordedBy` names what recorded it in
 * the file's first comment.
 *
 * A call with an agent step scripts its bot from what the bot did (`bot: { greet, turns }`: its
 * words before the caller's first, then for each of the caller's utterances the tool it asked
 * for, its words and its end; `bot: { sessions }` with a script per session when the call had
 * several), replays the caller's words (`say:`) and expects the tools asked and how the last
 * session's bot ended; a bot that could not be reached is `bot: unreachable`.
 *
 * Ids the flow picked (`playback-…`, `channel-…`) become patterns (`/^channel-[^,]+$/`), the call's
 * channel becomes `c1` (the scenario's), and the application name is left out, since a scenario
 * runs under its own.
 *
 * @example
 * const { yaml } = callToScenario(record, 'flows');
 * await writeFile('flows/ivr.call-1.test.yaml', yaml);
 */
export function callToScenario(
  record: RecordedCall,
  flowFileFrom: string,
  recordedBy = 'ringflow dev',
): RecordedScenario {
  const name = `recorded call ${record.id} (${new Date(record.startedAt).toISOString().slice(0, 19)}Z)`;
  const call: Record<string, unknown> = {
    caller: record.caller,
    ...(record.extension && /^[0-9A-Za-z*#+]+$/.test(record.extension)
      ? { extension: record.extension }
      : {}),
    ...(record.language ? { language: record.language } : {}),
    ...(record.args && record.args.length > 0 ? { args: [...record.args] } : {}),
    startAt: new Date(record.startedAt).toISOString(),
  };
  const farEnds = farEndsOf(record);
  const bot = botOf(record);
  const scenario: Record<string, unknown> = {
    name,
    ...(record.inputs && Object.keys(record.inputs).length > 0 ? { inputs: { ...record.inputs } } : {}),
    call,
    ...(Object.keys(farEnds).length > 0 ? { farEnds } : {}),
    ...(bot !== undefined ? { bot } : {}),
    steps: [...callerSteps(record), ...expectations(record)],
  };
  const document = {
    flow: relative(flowFileFrom, record.flowFile) || basename(record.flowFile),
    scenarios: [scenario],
  };
  const doc = new Document(document);
  doc.commentBefore = [
    ` Recorded by ${recordedBy} from the call ${record.id} to the flow ${record.flow}.`,
    ' It replays what the caller and the far ends did, at the times they did it, and expects',
    ' what the flow did then. Run it with: ringflow test <this file>',
    ...(bot !== undefined && typeof bot === 'object' && 'url' in bot
      ? [
          ' Its bot speaks the audio protocol (its words are its own audio): it is reached at its',
          ' address, so it must be running, and the scenario runs in real time; the caller talks',
          ' (a tone) when they talked on the line.',
        ]
      : []),
  ].join('\n');
  return { name, yaml: doc.toString({ lineWidth: 0 }), document };
}

/**
 * Where a recorded call's scenario file goes: beside its flow, named after the flow and the call
 * (`desk.call-1.test.yaml`); `taken` says which names are in use (then `desk.call-1-2.test.yaml`).
 */
export function scenarioFileFor(record: RecordedCall, taken: (file: string) => boolean): string {
  const dir = dirname(record.flowFile);
  const stem = basename(record.flowFile).replace(/\.ya?ml$/, '');
  for (let n = 1; ; n++) {
    const file = join(dir, `${stem}.${record.id}${n === 1 ? '' : `-${n}`}.test.yaml`);
    if (!taken(file)) return file;
  }
}

/** One behaviour per dial of each endpoint, in the order they rang. */
function farEndsOf(record: RecordedCall): Record<string, unknown> {
  const byEndpoint = new Map<string, unknown[]>();
  for (const farEnd of record.farEnds) {
    const behaviour =
      farEnd.outcome === 'answered'
        ? { answerAfter: duration(Math.max(0, (farEnd.at ?? farEnd.ringAt) - farEnd.ringAt)) }
        : // A scenario's far end refuses as it rings, as the person did (the page refuses busy).
          farEnd.outcome === 'rejected'
          ? (farEnd.refusal ?? 'busy')
          : 'noAnswer';
    const list = byEndpoint.get(farEnd.endpoint) ?? [];
    list.push(behaviour);
    byEndpoint.set(farEnd.endpoint, list);
  }
  return Object.fromEntries(
    [...byEndpoint].map(([endpoint, list]) => [endpoint, list.length === 1 ? list[0] : list]),
  );
}

/** The caller's side as steps: waits between actions, measured from the call's start. */
function callerSteps(record: RecordedCall): unknown[] {
  const steps: unknown[] = [];
  let now = 0;
  let talkingSince: number | undefined;
  const waitUntil = (at: number) => {
    if (at > now) steps.push({ wait: duration(at - now) });
    now = Math.max(now, at);
  };
  // A talk is one step (`talk: 3s`): it ends at the silence, or at whatever the caller does next.
  const endTalk = (at: number) => {
    if (talkingSince === undefined) return;
    steps.push({ talk: duration(Math.max(1, at - talkingSince)) });
    now = Math.max(now, at);
    talkingSince = undefined;
  };
  const until = record.end?.at ?? record.takenAt;
  const actions = [...record.actions].filter((a) => a.at <= until).sort((a, b) => a.at - b.at);
  for (const action of actions) {
    if (action.kind === 'talk') {
      if (action.talking && talkingSince === undefined) {
        waitUntil(action.at);
        talkingSince = now;
      } else if (!action.talking) endTalk(action.at);
      continue;
    }
    endTalk(action.at);
    waitUntil(action.at);
    steps.push(stepOf(action));
    if (action.kind === 'press') now += action.digits.length * PRESS_MS_PER_KEY;
    if (action.kind === 'say') now += wordsOf(action.text) * CALLER_WORD_MS;
  }
  endTalk(until);
  // A call still going on is replayed up to the moment it was saved.
  if (!record.end) waitUntil(record.takenAt);
  return steps;
}

function stepOf(action: Exclude<CallerAction, { kind: 'talk' }>): unknown {
  switch (action.kind) {
    case 'press':
      return { press: action.digits };
    case 'say':
      return { say: action.text };
    case 'hangup':
      return 'hangup';
    case 'hangupFarEnd':
      return { hangupFarEnd: action.endpoint };
  }
}

/** How many words `text` has (a scenario's `say:` talks 300 ms a word). */
function wordsOf(text: string): number {
  return Math.max(1, text.split(/\s+/).filter((w) => w !== '').length);
}

/** One agent session's turns as a scenario scripts them. */
type SessionScript = NonNullable<BotScript['sessions']>[number];

/**
 * The bot of the call's agent steps as a scenario's script, or `unreachable`; undefined for a
 * call without one. One session is scripted as `{ greet, turns }`; a call with several (a step
 * entered again, another agent step) as `{ sessions: [...] }`, one script per session in order
 * (`unreachable` for one whose bot could not be reached). A bot of the audio protocol cannot be
 * scripted (its words are its own audio): the bot at its address, `{ url }`, when every session
 * talked with that one.
 */
function botOf(record: RecordedCall): BotScript | 'unreachable' | { readonly url: string } | undefined {
  const connected = (record.agentTurns ?? []).flatMap(({ turn }) =>
    turn.kind === 'connected' ? [turn] : [],
  );
  const url = connected[0]?.bot;
  if (
    connected.some((turn) => turn.protocol === 'audio') &&
    url !== undefined &&
    /^wss?:\/\//.test(url) &&
    connected.every((turn) => turn.bot === url)
  )
    return { url };
  const sessions: SessionScript[] = [];
  let current: AgentTurn[] | undefined;
  const close = () => {
    if (current) sessions.push(sessionOf(current));
    current = undefined;
  };
  for (const { turn } of record.agentTurns ?? []) {
    if (turn.kind === 'connected' || turn.kind === 'unreachable') {
      close();
      if (turn.kind === 'unreachable') sessions.push('unreachable');
      else current = [];
    } else current?.push(turn);
  }
  close();
  if (sessions.length === 0) return undefined;
  if (sessions.every((session) => session === 'unreachable')) return 'unreachable';
  return sessions.length === 1 ? (sessions[0] as BotSession) : { sessions };
}

/** One session's script from its turns (after its connection): its greeting, then a turn per caller utterance. */
function sessionOf(turns: readonly AgentTurn[]): BotSession {
  const greet: string[] = [];
  const answers: { hears: string; tool?: BotTurn['tool']; says: string[]; end?: BotTurn['end'] }[] = [];
  for (const turn of turns) {
    const current = answers[answers.length - 1];
    if (turn.kind === 'caller') answers.push({ hears: turn.text, says: [] });
    if (turn.kind === 'bot') (current?.says ?? greet).push(turn.text);
    if (turn.kind === 'tool' && current && !current.tool)
      current.tool = {
        name: turn.name,
        ...(isRecord(turn.args) ? { args: turn.args } : {}),
      };
    if (turn.kind === 'end' && turn.by === 'bot' && current && isBotResult(turn.outcome))
      current.end = { result: turn.outcome, ...(isRecord(turn.data) ? { data: turn.data } : {}) };
    if (turn.kind === 'end') break;
  }
  return {
    ...(greet.length > 0 ? { greet: greet.join(' ') } : {}),
    turns: answers.map(({ says, ...turn }) => ({
      ...turn,
      ...(says.length > 0 ? { say: says.join(' ') } : {}),
    })),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isBotResult = (outcome: string): outcome is 'handoff' | 'done' | 'failed' =>
  outcome === 'handoff' || outcome === 'done' || outcome === 'failed';

/**
 * What the bots did, as `expect: { bot }` checks it: the tools they asked for (every session's, in
 * order), how the last session ended when its bot ended it.
 */
function botExpectation(record: RecordedCall): Record<string, unknown> | undefined {
  const turns = (record.agentTurns ?? []).map((t) => t.turn);
  if (!turns.some((t) => t.kind === 'connected')) return undefined;
  const tools = turns.flatMap((t) => (t.kind === 'tool' ? [t.name] : []));
  const last = turns.findLast((t) => t.kind === 'end' || t.kind === 'connected' || t.kind === 'unreachable');
  const ended = last?.kind === 'end' && last.by === 'bot' ? last : undefined;
  return {
    ...(tools.length > 0 ? { tools } : {}),
    ...(ended?.kind === 'end' ? { ended: ended.outcome } : {}),
  };
}

/** What the flow did: the end (first, so the rest is checked once the call is over), states, requests. */
function expectations(record: RecordedCall): unknown[] {
  const expect: Record<string, unknown> = {};
  const bot = botExpectation(record);
  if (bot && Object.keys(bot).length > 0) expect.bot = bot;
  if (record.end) expect.end = { status: record.end.status, by: record.end.by };
  else {
    const current = record.states[record.states.length - 1];
    if (current !== undefined) expect.state = current;
  }
  if (record.states.length > 0) expect.states = [...record.states];
  const actions = expectedActions(record);
  if (actions.length > 0) expect.action = actions;
  const steps: unknown[] = [{ expect }];
  const raised = new Set<string>();
  for (const request of record.requests) {
    if (request.operation !== 'events.userEvent') continue;
    const eventName = String(request.params.eventName ?? '');
    const variables = expectedValue(request.params.variables, record);
    const userEvent = variables === undefined ? eventName : { name: eventName, variables };
    const key = JSON.stringify(userEvent);
    if (eventName === '' || raised.has(key)) continue;
    raised.add(key);
    steps.push({ expect: { userEvent } });
  }
  return steps;
}

interface ExpectedAction {
  readonly operation: string;
  readonly params?: Record<string, unknown>;
}

/** Each distinct request once, with how many requests it matches (so `times` holds as written). */
function expectedActions(record: RecordedCall): Record<string, unknown>[] {
  const made = record.requests
    .filter((r) => !READ_OPERATIONS.has(r.operation))
    .map((r): ExpectedAction => {
      const params = expectedParams(r, record);
      return params === undefined ? { operation: r.operation } : { operation: r.operation, params };
    });
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const action of made) {
    const key = JSON.stringify(action);
    if (seen.has(key)) continue;
    seen.add(key);
    const times = made.filter(
      (other) =>
        other.operation === action.operation && matchesPartly(action.params ?? {}, other.params ?? {}),
    ).length;
    out.push({ ...action, times });
  }
  return out;
}

function expectedParams(request: FlowRequest, record: RecordedCall): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.params)) {
    if (APPLICATION_PARAMS.has(key)) continue;
    const expected = expectedValue(value, record);
    if (expected !== undefined) out[key] = expected;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * A value as a scenario expects it: the call's channel id as `c1`, ids the flow picked as patterns;
 * nothing (undefined) for what cannot be matched (null, empty lists and maps).
 */
function expectedValue(value: unknown, record: RecordedCall): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return expectedText(value, record);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => expectedValue(v, record));
    if (items.length === 0 || items.some((v) => v === undefined)) return undefined;
    // A list with a pattern in it is one pattern of the list as it travels: comma separated text.
    const patterns = items.map((v) => (typeof v === 'string' ? PATTERN.exec(v) : null));
    if (patterns.some((p) => p !== null) && items.every((v) => typeof v !== 'object'))
      return `/^${items.map((v, i) => patterns[i]?.[1] ?? escapeRegex(String(v))).join(',')}$/`;
    return items;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, expectedValue(v, record)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return undefined;
}

function expectedText(text: string, record: RecordedCall): string {
  const own = replaceToken(text, record.id, SCENARIO_CHANNEL);
  const picked = record.pickedIds.filter((id) => own.includes(id));
  // Text that a scenario would read as a pattern (`/x/`) is written as a pattern matching just it.
  if (picked.length === 0) return /^\/.+\/[dgimsuy]*$/s.test(own) ? `/^${escapeRegex(own)}$/` : own;
  let pattern = escapeRegex(own);
  for (const id of picked) {
    const kind = ID_KIND.exec(id)?.[1];
    pattern = pattern.split(escapeRegex(id)).join(kind ? `${kind}-[^,]+` : '[^,]+');
  }
  return `/^${pattern}$/`;
}

/** Replaces `token` where it stands alone (`call-1`, not `call-10`). */
function replaceToken(text: string, token: string, by: string): string {
  return text.replace(new RegExp(`(?<![\\w-])${escapeRegex(token)}(?![\\w-])`, 'g'), by);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Whether every entry of `expected` is in `actual` (maps partly, lists and text exactly), as scenarios match. */
function matchesPartly(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      expected.length === actual.length &&
      expected.every((e, i) => matchesPartly(e, actual[i]))
    );
  if (expected !== null && typeof expected === 'object')
    return (
      actual !== null &&
      typeof actual === 'object' &&
      Object.entries(expected).every(([k, v]) => matchesPartly(v, (actual as Record<string, unknown>)[k]))
    );
  return String(expected) === String(actual);
}

/** A duration as scenario files write it: `2s`, `2345ms`. */
function duration(ms: number): string {
  const rounded = Math.max(0, Math.round(ms));
  return rounded % 1000 === 0 ? `${rounded / 1000}s` : `${rounded}ms`;
}
