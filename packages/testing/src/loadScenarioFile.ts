import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  convertFlowInputs,
  convertInputValue,
  describeFileError,
  formatPath,
  type Diagnostic,
  type Duration,
  diagnostic,
  type Flow,
  type InputDeclaration,
  type Path,
  parseDuration,
  parseFlow,
  parseYamlWithPositions,
  type Schema,
  sortDiagnostics,
  checkValue,
  type Infer,
} from '@ringflow/dsl';
import { type ActionMatcher, compileActionMatcher } from './ActionMatcher.ts';
import { type AgentStepProtocol, agentStepProtocols } from './agents/agentStepProtocols.ts';
import type { BotModule } from './agents/loadBotModule.ts';
import { readBot, readBotExpectation, scenarioBotModules } from './agents/scenarioBots.ts';
import type { BotExpectation } from './agents/botExpectation.ts';
import {
  mergeHttpAnswers,
  readHttpAnswers,
  readHttpExpectations,
  type HttpExpectationItem,
} from './http/readHttp.ts';
import type { EndExpectation } from './FlowTestCall.ts';
import { type Expected, fromYamlExpected } from './matchValue.ts';
import { type expectSchema, scenarioFileSchema, scenarioSchema, STEP_KEYS } from './scenarioFileSchema.ts';
import type {
  FarEnd,
  FarEndBehaviour,
  ScenarioCallOptions,
  ScenarioOptions,
  TestCallOptions,
  TestSound,
} from './TestCallOptions.ts';

/** Where something sits in a scenario file. */
export interface Place {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One checked expectation of an `expect` step. */
export type ScenarioExpectation =
  | { readonly kind: 'action'; readonly matcher: ActionMatcher; readonly times?: number }
  | { readonly kind: 'noAction'; readonly matcher: ActionMatcher }
  | { readonly kind: 'visited' | 'notVisited' | 'states'; readonly states: readonly string[] }
  | { readonly kind: 'state'; readonly state: string }
  | {
      readonly kind: 'userEvent';
      readonly name: string;
      readonly variables?: Readonly<Record<string, Expected>>;
    }
  | { readonly kind: 'end'; readonly end: EndExpectation }
  | { readonly kind: 'bot'; readonly bot: BotExpectation }
  | ({ readonly kind: 'http' } & HttpExpectationItem)
  | {
      readonly kind: 'bridge';
      readonly id?: string;
      readonly name?: string;
      readonly calls?: readonly string[];
    }
  | {
      readonly kind: 'server';
      readonly channels?: number;
      readonly bridges?: number;
      readonly liveRecordings?: number;
    };

/**
 * One step of a scenario, with its place in the file for messages. `call` names the caller it is
 * about (`- member: { press: "1" }`); without it, the only caller, or the room.
 */
export type ScenarioStep = { readonly place: Place; readonly text: string; readonly call?: string } & (
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'press'; readonly digits: string }
  | { readonly kind: 'hangup' }
  | { readonly kind: 'talk'; readonly ms: number }
  | { readonly kind: 'say'; readonly words: string }
  | { readonly kind: 'hangupFarEnd'; readonly endpoint: string }
  | { readonly kind: 'inject'; readonly event: { readonly type: string } & Record<string, unknown> }
  | { readonly kind: 'expect'; readonly expectations: readonly ScenarioExpectation[] }
);

export interface Scenario {
  readonly name: string;
  readonly place: Place;
  /** The world and the callers (one named `caller` when the file gives `call` rather than `calls`). */
  readonly options: ScenarioOptions;
  readonly steps: readonly ScenarioStep[];
}

/** A scenario file, loaded with its flow. */
export interface ScenarioSuite {
  readonly file: string;
  readonly flowFile: string;
  readonly flow: Flow;
  /** Other flows the scenarios' calls may enter (`flows: { agent: agent.yaml }`), by name. */
  readonly flows: Readonly<Record<string, Flow>>;
  readonly scenarios: readonly Scenario[];
}

export type ScenarioSuiteResult =
  | { readonly ok: true; readonly suite: ScenarioSuite; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Steps a caller does: with several calls, they say whose (`- member: { press: "1" }`). */
const CALLER_STEPS = ['press', 'hangup', 'talk', 'say'];
/** Expectations about one caller's flow: with several calls, they say whose. */
const CALLER_EXPECTATIONS = ['visited', 'notVisited', 'states', 'state', 'end', 'bot'];
const CALL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The flow a scenario file tests when it names none: `ivr.test.yaml` tests `ivr.yaml`. */
export function defaultFlowFile(scenarioFile: string): string {
  return resolve(dirname(scenarioFile), basename(scenarioFile).replace(/\.test\.ya?ml$/, '.yaml'));
}

/**
 * Reads a scenario file (`<flow>.test.yaml`) and the flow it tests. Every problem comes back as a
 * positioned diagnostic (`file:line:col`), never thrown: its shape is checked by the schema
 * language flows use (unknown keys with suggestions, wrong types, durations, values), then what
 * needs the flow or the rest of the file (states, callers, inputs, operations), and the flow's
 * own errors.
 *
 * @example
 * const result = await loadScenarioFile('flows/ivr.test.yaml');
 * if (result.ok) for (const s of result.suite.scenarios) console.log(s.name);
 */
export async function loadScenarioFile(file: string): Promise<ScenarioSuiteResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return {
      ok: false,
      diagnostics: [
        {
          ...diagnostic(
            'missing-field',
            [],
            `cannot read the scenario file ${file}: ${describeFileError(error)}`,
          ),
          file,
          line: 1,
          column: 1,
        },
      ],
    };
  }
  const parsed = parseYamlWithPositions(text, file);
  if (parsed.diagnostics.some((d) => d.severity === 'error'))
    return { ok: false, diagnostics: parsed.diagnostics };
  const reader = new ScenarioReader(file, parsed.locate);
  reader.check(scenarioFileSchema, parsed.value, []);
  const value = parsed.value;
  // Read on despite shape problems (they are told): every problem of the file comes out at once.
  const doc =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as ScenarioFileDocument)
      : undefined;
  const flowName = typeof doc?.flow === 'string' ? doc.flow : undefined;
  const flowFile = flowName === undefined ? defaultFlowFile(file) : resolve(dirname(file), flowName);
  let flow: Flow | undefined;
  try {
    const result = parseFlow(await readFile(flowFile, 'utf8'), flowFile);
    if (result.ok) flow = result.flow;
    else reader.diagnostics.push(...result.diagnostics);
  } catch (error) {
    reader.problem(
      'missing-field',
      doc?.flow !== undefined ? ['flow'] : [],
      `cannot read the flow ${flowFile}: ${describeFileError(error)}. Name it with flow: <file>, relative to this file`,
    );
  }
  if (!doc || !flow) {
    // The scenarios' own shape is told with the flow's errors, rather than after they are fixed.
    if (doc && Array.isArray(doc.scenarios) && reader.fits(['scenarios']))
      doc.scenarios.forEach((item, i) => {
        const own = (item as { calls?: unknown } | null)?.calls;
        const cast = own !== null && typeof own === 'object' ? own : (doc.calls ?? { caller: {} });
        reader.check(scenarioSchema(Object.keys(cast)), item, ['scenarios', i]);
      });
    return { ok: false, diagnostics: sortDiagnostics(reader.diagnostics) };
  }
  reader.states = Object.keys(flow.document.states);
  const flows = await loadOtherFlows(doc.flows, file, reader);
  for (const [name, other] of Object.entries(flows))
    reader.flowStates.set(name, Object.keys(other.document.states));
  reader.declaredInputs = flow.document.inputs ?? {};
  reader.botModules = await scenarioBotModules(doc, file);
  reader.agentSteps = agentStepProtocols([flow, ...Object.values(flows)]);
  const shared = reader.shared(doc, []);
  const scenarios: Scenario[] = [];
  const list = doc.scenarios;
  if (!Array.isArray(list) || list.length === 0) {
    if (reader.fits(['scenarios']))
      reader.problem(
        'missing-field',
        list === undefined ? [] : ['scenarios'],
        'scenarios: expected a list of scenarios, each with a name and steps',
      );
  } else {
    list.forEach((item, i) => {
      const scenario = reader.scenario(item, ['scenarios', i], shared, flows);
      if (scenario) scenarios.push(scenario);
    });
    const names = scenarios.map((s) => s.name);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i)
        reader.problem(
          'invalid-value',
          ['scenarios', i, 'name'],
          `the scenario name "${name}" is used twice; give each scenario its own name`,
        );
    });
  }
  const diagnostics = sortDiagnostics(reader.diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics };
  return { ok: true, suite: { file, flowFile, flow, flows, scenarios }, diagnostics };
}

/** `flows: { agent: agent.yaml }`: other flows the callers may enter, paths relative to the file. */
async function loadOtherFlows(
  paths: Readonly<Record<string, string>> | undefined,
  file: string,
  reader: ScenarioReader,
): Promise<Record<string, Flow>> {
  const out: Record<string, Flow> = {};
  for (const [name, path] of Object.entries(paths ?? {})) {
    if (!reader.fits(['flows', name])) continue;
    const flowFile = resolve(dirname(file), path);
    try {
      const result = parseFlow(await readFile(flowFile, 'utf8'), flowFile);
      if (result.ok) out[name] = result.flow;
      else reader.diagnostics.push(...result.diagnostics);
    } catch (error) {
      reader.problem(
        'missing-field',
        ['flows', name],
        `cannot read the flow ${flowFile}: ${(error as Error).message}`,
      );
    }
  }
  return out;
}

type ScenarioFileDocument = Infer<typeof scenarioFileSchema>;
type ScenarioDocument = Infer<ReturnType<typeof scenarioSchema>>;
type SharedDocument = Pick<
  ScenarioFileDocument,
  'call' | 'calls' | 'inputs' | 'farEnds' | 'dialplan' | 'sounds' | 'transport' | 'bot' | 'http'
>;
type CallsEntryDocument = NonNullable<NonNullable<SharedDocument['calls']>[string]>;
type FarEndDocument = Exclude<NonNullable<SharedDocument['farEnds']>[string], readonly unknown[]>;
type MatcherDocument = Exclude<NonNullable<ExpectDocument['action']>, readonly unknown[]>;
type ExpectDocument = Infer<typeof expectSchema>;

type Shared = Pick<
  TestCallOptions,
  'inputs' | 'farEnds' | 'dialplan' | 'sounds' | 'transport' | 'bot' | 'http'
> & {
  /** Defaults of every caller (`call`), and the scenario's start time. */
  call: TestCallOptions;
  /** The callers by name (`calls`); without it, one caller named `caller`. */
  calls?: Readonly<Record<string, ScenarioCallOptions>>;
};

/**
 * Reads a scenario file whose shape has been checked: converts each part that fits its schema
 * (parts with a shape problem are skipped, their problem already told) and checks what the
 * schema cannot know, collecting positioned diagnostics.
 */
class ScenarioReader {
  readonly diagnostics: Diagnostic[] = [];
  /** Where the shape problems are (a missing field: at its mapping): what lies at or under one is not read. */
  private readonly misfits: Path[] = [];
  /** The main flow's states. */
  states: readonly string[] = [];
  /** The states of the other flows calls may enter, by flow name. */
  flowStates = new Map<string, readonly string[]>();
  declaredInputs: Readonly<Record<string, InputDeclaration>> = {};
  /** The bot modules the file names, loaded (or why they could not be), by what the file wrote. */
  botModules: ReadonlyMap<string, BotModule | Error> = new Map();
  /** The agent steps of the flows, with their protocols: a bot must speak them. */
  agentSteps: readonly AgentStepProtocol[] = [];

  constructor(
    private readonly file: string,
    private readonly locate: (d: Diagnostic) => Diagnostic,
  ) {}

  /** Checks a value against a schema; false when it has a shape problem. */
  check(schema: Schema<unknown>, value: unknown, path: Path): boolean {
    const found = checkValue(schema.node, value, path).diagnostics;
    for (const d of found) {
      // A problem with a value says which field it is in (`press: "x" is not valid: ...`).
      const message = d.target === 'value' ? `${fieldOf(d.path)}${d.message}` : d.message;
      this.diagnostics.push(this.locate({ ...d, message, file: this.file }));
      this.misfits.push(d.path);
    }
    return found.length === 0;
  }

  /** Whether the value at `path` and everything under it fit the schema. */
  fits(path: Path): boolean {
    return !this.misfits.some((m) => path.every((part, i) => m[i] === part));
  }

  problem(
    name: Parameters<typeof diagnostic>[0],
    path: Path,
    message: string,
    target: 'key' | 'value' = 'value',
  ) {
    this.diagnostics.push(this.locate({ ...diagnostic(name, path, message, { target }), file: this.file }));
  }

  place(path: Path): Place {
    const d = this.locate({ ...diagnostic('invalid-value', path, ''), file: this.file });
    return { file: this.file, line: d.line ?? 1, column: d.column ?? 1 };
  }

  shared(doc: SharedDocument, path: Path, base?: Shared): Shared {
    const call: TestCallOptions = { ...base?.call, ...this.call(doc.call, [...path, 'call']) };
    const inputs =
      doc.inputs === undefined
        ? base?.inputs
        : { ...base?.inputs, ...this.inputs(doc.inputs, [...path, 'inputs']) };
    const farEnds =
      doc.farEnds === undefined
        ? base?.farEnds
        : { ...base?.farEnds, ...this.farEnds(doc.farEnds, [...path, 'farEnds']) };
    // A scenario's sounds add to the file's (a name given again replaces it).
    const sounds =
      doc.sounds === undefined
        ? base?.sounds
        : [
            ...(base?.sounds ?? []).filter((b) => !Object.hasOwn(doc.sounds!, b.name)),
            ...this.sounds(doc.sounds, [...path, 'sounds']),
          ];
    const dialplan =
      doc.dialplan === undefined || !this.fits([...path, 'dialplan'])
        ? base?.dialplan
        : [base?.dialplan, String(doc.dialplan)].filter(Boolean).join('\n');
    const transport =
      doc.transport === undefined || !this.fits([...path, 'transport']) ? base?.transport : doc.transport;
    // A scenario's bot replaces the file's.
    const bot =
      doc.bot === undefined || !this.fits([...path, 'bot'])
        ? base?.bot
        : readBot(doc.bot, this.botModules, this.agentSteps, (message) =>
            this.problem('invalid-value', [...path, 'bot'], message),
          );
    // A scenario's answers add to the file's (a request answered again is answered its way).
    const http =
      doc.http === undefined || doc.http === null || typeof doc.http !== 'object' || Array.isArray(doc.http)
        ? base?.http
        : mergeHttpAnswers(
            base?.http,
            readHttpAnswers(
              doc.http,
              [...path, 'http'],
              (p, message, target) => this.problem('invalid-value', p, message, target),
              (p) => this.fits(p),
            ),
          );
    // A scenario's own `calls` is its cast: it replaces the file's, rather than adding to it.
    const calls = doc.calls === undefined ? base?.calls : this.calls(doc.calls, [...path, 'calls']);
    return {
      call,
      ...(calls ? { calls } : {}),
      ...(inputs ? { inputs } : {}),
      ...(farEnds ? { farEnds } : {}),
      ...(sounds ? { sounds } : {}),
      ...(dialplan ? { dialplan } : {}),
      ...(transport ? { transport } : {}),
      ...(bot ? { bot } : {}),
      ...(http ? { http } : {}),
    };
  }

  /** `calls: { moderator: { caller: "5551000" }, member: { at: 10s } }`: the callers, by name. */
  calls(
    map: Readonly<Record<string, CallsEntryDocument | null>>,
    path: Path,
  ): Record<string, ScenarioCallOptions> | undefined {
    if (Object.keys(map).length === 0) {
      this.problem('invalid-value', path, 'calls: expected at least one caller, e.g. { moderator: {} }');
      return undefined;
    }
    const out: Record<string, ScenarioCallOptions> = {};
    for (const [name, body] of Object.entries(map)) {
      const p = [...path, name];
      if (!CALL_NAME.test(name) || (STEP_KEYS as readonly string[]).includes(name))
        this.problem(
          'invalid-value',
          p,
          `"${name}": a caller's name is a word (letters, digits, - or _) and not a step name (${STEP_KEYS.join(', ')})`,
          'key',
        );
      const { at, flow, inputs, answers, ...rest } = body ?? {};
      const call: Record<string, unknown> = { ...this.call(rest, p) };
      if (answers !== undefined && this.fits([...p, 'answers'])) call.answers = answers;
      if (at !== undefined && this.fits([...p, 'at'])) call.at = parseDuration(at);
      if (flow !== undefined && this.fits([...p, 'flow'])) {
        if (this.flowStates.has(flow)) call.flow = flow;
        else
          this.problem(
            'unknown-target',
            [...p, 'flow'],
            `flow: expected the name of a flow under flows: (${[...this.flowStates.keys()].join(', ') || 'none declared'})`,
          );
      }
      // Converted to the main flow's declared types here; a caller of another flow is checked by it at start.
      if (inputs !== undefined)
        call.inputs = call.flow === undefined ? this.inputs(inputs, [...p, 'inputs']) : inputs;
      out[name] = call as ScenarioCallOptions;
    }
    return out;
  }

  /** Inputs converted to the types the flow declares; undeclared ones and misfits are reported at their key. */
  inputs(map: Readonly<Record<string, unknown>>, path: Path): Record<string, unknown> | undefined {
    const result = convertFlowInputs(this.declaredInputs, map);
    if (result.ok) return Object.fromEntries(Object.keys(map).map((k) => [k, result.inputs[k]]));
    for (const problem of result.problems) {
      // A required input may come from the scenario itself; the call reports it if it never does.
      if (problem.kind === 'missing') continue;
      this.problem(
        problem.kind === 'unknown' ? 'unknown-input' : 'wrong-type',
        [...path, problem.name],
        problem.message,
        problem.kind === 'unknown' ? 'key' : 'value',
      );
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(map)) {
      const declared = this.declaredInputs[k];
      if (declared) out[k] = convertInputValue(declared.type, v) ?? v;
    }
    return out;
  }

  call(
    value: (Omit<NonNullable<SharedDocument['call']>, 'startAt'> & { startAt?: string }) | undefined,
    path: Path,
  ): TestCallOptions {
    if (value === undefined) return {};
    const out: Record<string, unknown> = {};
    for (const key of ['caller', 'callerName', 'extension', 'language'] as const)
      if (value[key] !== undefined && this.fits([...path, key])) out[key] = String(value[key]);
    if (value.variables !== undefined && this.fits([...path, 'variables']))
      out.variables = Object.fromEntries(Object.entries(value.variables).map(([k, v]) => [k, String(v)]));
    if (value.args !== undefined && this.fits([...path, 'args'])) out.args = value.args.map(String);
    if (value.startAt !== undefined && this.fits([...path, 'startAt']))
      out.startAt = Date.parse(value.startAt);
    return out as TestCallOptions;
  }

  farEnds(map: NonNullable<SharedDocument['farEnds']>, path: Path): Record<string, FarEndBehaviour> {
    const out: Record<string, FarEndBehaviour> = {};
    for (const [endpoint, behaviour] of Object.entries(map)) {
      const p = [...path, endpoint];
      if (!this.fits(p)) continue;
      if (Array.isArray(behaviour)) {
        if (behaviour.length === 0)
          this.problem(
            'invalid-value',
            p,
            'expected at least one behaviour, one per successive call: [busy, answer]',
          );
        else out[endpoint] = behaviour.map(farEnd);
      } else out[endpoint] = farEnd(behaviour as FarEndDocument);
    }
    return out;
  }

  /**
   * `sounds: { acme/welcome: 2.5s, acme/menu: { duration: 4s, languages: [en, fr] } }`: the
   * flow's own prompts the simulated server has.
   */
  sounds(map: NonNullable<SharedDocument['sounds']>, path: Path): TestSound[] {
    const out: TestSound[] = [];
    for (const [name, body] of Object.entries(map)) {
      if (!this.fits([...path, name])) continue;
      const spec = typeof body === 'object' ? body : { duration: body };
      out.push({
        name,
        duration: parseDuration(spec.duration)!,
        ...(spec.languages ? { languages: spec.languages } : {}),
      });
    }
    return out;
  }

  scenario(
    value: unknown,
    path: Path,
    shared: Shared,
    flows: Readonly<Record<string, Flow>>,
  ): Scenario | undefined {
    // Steps may name the callers of the scenario (its own cast, else the file's).
    const own = (value as { calls?: unknown } | null)?.calls;
    const cast =
      own !== null && typeof own === 'object'
        ? Object.keys(own)
        : Object.keys(shared.calls ?? { caller: {} });
    this.check(scenarioSchema(cast), value, path);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const map = value as Partial<ScenarioDocument>;
    const name = typeof map.name === 'string' && map.name.trim() !== '' ? map.name : undefined;
    // A missing name is the schema's to tell; an empty one is not.
    if (name === undefined && typeof map.name === 'string')
      this.problem('missing-field', path, 'every scenario needs a name (name: ...)');
    const mine = this.shared(map, path, shared);
    const { startAt, ...defaults } = mine.call;
    const calls: Record<string, ScenarioCallOptions> = {};
    for (const [caller, options] of Object.entries(mine.calls ?? { caller: {} }))
      calls[caller] = { ...defaults, ...options };
    const steps: ScenarioStep[] = [];
    if (!Array.isArray(map.steps) || map.steps.length === 0) {
      if (this.fits([...path, 'steps']))
        this.problem(
          'missing-field',
          map.steps === undefined ? path : [...path, 'steps'],
          `steps: expected a list (${STEP_KEYS.join(', ')})`,
        );
    } else
      map.steps.forEach((item, i) => {
        const step = this.step(item, [...path, 'steps', i], calls);
        if (step) steps.push(step);
      });
    if (name === undefined) return undefined;
    const options: ScenarioOptions = {
      calls,
      ...(startAt !== undefined ? { startAt } : {}),
      ...(mine.inputs ? { inputs: mine.inputs } : {}),
      ...(mine.farEnds ? { farEnds: mine.farEnds } : {}),
      ...(mine.sounds ? { sounds: mine.sounds } : {}),
      ...(mine.dialplan ? { dialplan: mine.dialplan } : {}),
      ...(mine.transport ? { transport: mine.transport } : {}),
      ...(mine.bot ? { bot: mine.bot } : {}),
      // The flows' webhooks are the file's to answer: a request it does not answer fails the scenario.
      http: mine.http ?? {},
      // A bot on a real WebSocket answers in real time: the scenario's time passes as it does.
      ...(mine.bot && typeof mine.bot === 'object' && 'url' in mine.bot ? { realTime: true } : {}),
      ...(Object.keys(flows).length > 0 ? { flows } : {}),
    };
    return { name, place: this.place(path), options, steps };
  }

  /** The states a caller's flow has (the main flow's, or the one it enters). */
  private statesOf(
    calls: Readonly<Record<string, ScenarioCallOptions>>,
    call: string | undefined,
  ): readonly string[] {
    const flow = call === undefined ? undefined : calls[call]?.flow;
    return flow === undefined ? this.states : (this.flowStates.get(flow) ?? this.states);
  }

  step(
    value: unknown,
    path: Path,
    calls: Readonly<Record<string, ScenarioCallOptions>>,
    call?: string,
  ): ScenarioStep | undefined {
    const entry: [string, unknown] | undefined =
      typeof value === 'string'
        ? [value, undefined]
        : value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1
          ? Object.entries(value)[0]
          : undefined;
    if (!entry) return undefined;
    const callers = Object.keys(calls);
    const [kind, body] = entry;
    const p = typeof value === 'string' ? path : [...path, kind];
    // `- member: { press: "1" }` / `- member: hangup`: a step of one caller.
    if (call === undefined && calls[kind] !== undefined && !(STEP_KEYS as readonly string[]).includes(kind))
      return this.step(body, p, calls, kind);
    if (!(STEP_KEYS as readonly string[]).includes(kind)) return undefined;
    const place = this.place(path);
    const text = `${call === undefined ? '' : `${call}: `}${typeof value === 'string' ? kind : `${kind} ${JSON.stringify(body)}`}`;
    const whose = call === undefined ? {} : { call };
    if (call === undefined && callers.length > 1 && CALLER_STEPS.includes(kind)) {
      this.problem(
        'missing-field',
        p,
        `${kind}: this scenario has several callers (${callers.join(', ')}); say whose: - ${callers[0]}: { ${kind}: ... }`,
        'key',
      );
      return undefined;
    }
    if (kind !== 'expect' && !this.fits(p)) return undefined;
    switch (kind) {
      case 'wait':
      case 'talk':
        return { kind, ms: parseDuration(body as string | number)!, place, text, ...whose };
      case 'press':
        return { kind, digits: String(body), place, text, ...whose };
      case 'say':
        return { kind, words: String(body), place, text, ...whose };
      case 'hangup':
        return { kind, place, text, ...whose };
      case 'hangupFarEnd':
        return { kind, endpoint: String(body), place, text, ...whose };
      case 'inject': {
        const event = body as Record<string, unknown>;
        if (typeof event.type !== 'string') {
          this.problem('missing-field', p, 'inject: the event needs a type (e.g. type: ChannelUserevent)');
          return undefined;
        }
        return { kind, event: event as { type: string }, place, text, ...whose };
      }
      case 'expect': {
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
        const map = body as ExpectDocument;
        if (call === undefined && callers.length > 1)
          for (const key of Object.keys(map).filter((k) => CALLER_EXPECTATIONS.includes(k)))
            this.problem(
              'missing-field',
              [...p, key],
              `${key} is about one caller's flow and this scenario has several (${callers.join(', ')}); say whose: - ${callers[0]}: { expect: { ${key}: ... } }`,
              'key',
            );
        const states = this.statesOf(calls, call);
        const expectations = Object.entries(map)
          .flatMap(([key, v]) =>
            // action / noAction may list several actions: each must (not) have been made.
            (key === 'action' || key === 'noAction') && Array.isArray(v)
              ? v.map((item, i) => this.expectation(key, item, [...p, key, i], states, callers))
              : // http checks each request it names.
                key === 'http'
                ? this.httpExpectations(v, [...p, key])
                : [this.expectation(key, v, [...p, key], states, callers)],
          )
          .filter((e): e is ScenarioExpectation => e !== undefined);
        return { kind, expectations, place, text, ...whose };
      }
      default:
        return undefined;
    }
  }

  private httpExpectations(value: unknown, path: Path): ScenarioExpectation[] {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
    return readHttpExpectations(
      value as NonNullable<ExpectDocument['http']>,
      path,
      (p, message, target) => this.problem('invalid-value', p, message, target),
      (p) => this.fits(p),
    ).map((item) => ({ kind: 'http', ...item }));
  }

  private stateList(
    value: string | number | readonly (string | number)[],
    path: Path,
    states: readonly string[],
  ): string[] {
    const list = Array.isArray(value) ? value.map(String) : [String(value)];
    list.forEach((s, i) => {
      if (!states.includes(s))
        this.problem(
          'unknown-target',
          Array.isArray(value) ? [...path, i] : path,
          `unknown state "${s}". The flow's states: ${states.join(', ')}`,
        );
    });
    return list;
  }

  private matcher(value: MatcherDocument, path: Path): ActionMatcher | undefined {
    const matcher = readMatcher(value);
    try {
      compileActionMatcher(matcher);
    } catch (error) {
      this.problem('invalid-value', path, (error as Error).message);
      return undefined;
    }
    return matcher;
  }

  private expectation(
    kind: string,
    value: unknown,
    path: Path,
    states: readonly string[],
    callers: readonly string[],
  ): ScenarioExpectation | undefined {
    if (!this.fits(path)) return undefined;
    switch (kind) {
      case 'action':
      case 'noAction': {
        const matcher = this.matcher(value as MatcherDocument, path);
        if (matcher === undefined) return undefined;
        const times = typeof value === 'object' ? (value as { times?: number }).times : undefined;
        return kind === 'action' && times !== undefined ? { kind, matcher, times } : { kind, matcher };
      }
      case 'visited':
      case 'notVisited':
      case 'states':
        return { kind, states: this.stateList(value as string, path, states) };
      case 'state': {
        const [state] = this.stateList(value as string, path, states);
        return state !== undefined ? { kind, state } : undefined;
      }
      case 'bridge': {
        const map = value as NonNullable<ExpectDocument['bridge']>;
        const calls = map.calls?.map(String);
        calls?.forEach((c, i) => {
          if (!callers.includes(c) && !/^c\d+$/.test(c))
            this.problem(
              'unknown-target',
              [...path, 'calls', i],
              `"${c}" is not a caller of this scenario (${callers.join(', ')})`,
            );
        });
        return {
          kind,
          ...(map.id !== undefined ? { id: String(map.id) } : {}),
          ...(map.name !== undefined ? { name: String(map.name) } : {}),
          ...(calls !== undefined ? { calls } : {}),
        };
      }
      case 'server':
        return { kind, ...(value as NonNullable<ExpectDocument['server']>) };
      case 'bot':
        return { kind, bot: readBotExpectation(value as NonNullable<ExpectDocument['bot']>) };
      case 'userEvent': {
        if (typeof value === 'string') return { kind, name: value };
        const map = value as Exclude<NonNullable<ExpectDocument['userEvent']>, string>;
        return map.variables === undefined
          ? { kind, name: map.name }
          : { kind, name: map.name, variables: fromYamlExpected(map.variables) as Record<string, Expected> };
      }
      case 'end': {
        const map = (value ?? {}) as Exclude<NonNullable<ExpectDocument['end']>, null>;
        const end: { -readonly [K in keyof EndExpectation]: EndExpectation[K] } = {};
        if (map.status !== undefined) end.status = map.status;
        if (map.by !== undefined) end.by = map.by;
        for (const key of ['within', 'after'] as const)
          if (map[key] !== undefined) end[key] = parseDuration(map[key]!)!;
        return { kind, end };
      }
      default:
        return undefined;
    }
  }
}

/** `press: `, `PJSIP/c[1]: `: the field a path ends in, from its last key, to start a message. */
function fieldOf(path: Path): string {
  const last = path.findLastIndex((part) => typeof part === 'string');
  return last < 0 ? '' : `${formatPath(path.slice(last))}: `;
}

/** `{ answerAfter: 3s }` -> `{ answerAfterMs: 3000 }`; names stay as they are. */
function farEnd(behaviour: FarEndDocument): FarEnd {
  if (typeof behaviour === 'string') return behaviour as FarEnd;
  const answerAfter = (after: Duration | undefined) =>
    after === undefined ? {} : { answerAfterMs: parseDuration(after)! };
  if ('machine' in behaviour) {
    const { greeting, beep, answerAfter: after } = behaviour.machine;
    return {
      machine: { greetingMs: parseDuration(greeting)!, beep: beep === true, ...answerAfter(after) },
    };
  }
  if ('human' in behaviour) {
    const { says, answerAfter: after } = behaviour.human;
    return { human: { saysMs: parseDuration(says)!, ...answerAfter(after) } };
  }
  return { answerAfterMs: parseDuration(behaviour.answerAfter)! };
}

/** An action matcher as written: an operation or `METHOD /path` text, or its fields. */
function readMatcher(value: MatcherDocument): ActionMatcher {
  if (typeof value === 'string') return value;
  const pathValue = value.path === undefined ? undefined : fromYamlExpected(value.path);
  return {
    ...(value.operation !== undefined ? { operation: String(value.operation) } : {}),
    ...(value.method !== undefined ? { method: String(value.method) } : {}),
    ...(pathValue instanceof RegExp || typeof pathValue === 'string' ? { path: pathValue } : {}),
    ...(value.params !== undefined
      ? { params: fromYamlExpected(value.params) as Record<string, Expected> }
      : {}),
  };
}
