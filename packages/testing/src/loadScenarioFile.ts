import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  convertFlowInputs,
  convertInputValue,
  describeFileError,
  type Diagnostic,
  diagnostic,
  type Flow,
  type InputDeclaration,
  type Path,
  parseDuration,
  parseFlow,
  parseYamlWithPositions,
  sortDiagnostics,
} from '@ringflow/dsl';
import { type ActionMatcher, compileActionMatcher } from './ActionMatcher.ts';
import type { EndExpectation } from './FlowTestCall.ts';
import { type Expected, fromYamlExpected } from './matchValue.ts';
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

const CALL_KEYS = ['caller', 'callerName', 'extension', 'language', 'variables', 'args', 'startAt'] as const;
/** Keys of one caller in `calls`: who calls, and when and where it arrives (`startAt` is the scenario's). */
const CALLS_ENTRY_KEYS = [
  ...CALL_KEYS.filter((k) => k !== 'startAt'),
  'inputs',
  'at',
  'flow',
  'answers',
] as const;
const SHARED_KEYS = ['call', 'calls', 'inputs', 'farEnds', 'dialplan', 'sounds'] as const;
const STEP_KEYS = ['wait', 'press', 'hangup', 'talk', 'hangupFarEnd', 'inject', 'expect'] as const;
/** Steps a caller does: with several calls, they say whose (`- member: { press: "1" }`). */
const CALLER_STEPS = ['press', 'hangup', 'talk'];
const EXPECT_KEYS = [
  'action',
  'noAction',
  'visited',
  'notVisited',
  'states',
  'state',
  'userEvent',
  'end',
  'bridge',
  'server',
];
/** Expectations about one caller's flow: with several calls, they say whose. */
const CALLER_EXPECTATIONS = ['visited', 'notVisited', 'states', 'state', 'end'];
const CALL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const FAR_ENDS = ['answer', 'busy', 'reject', 'noAnswer', 'unreachable'];
const STATUSES = ['completed', 'recovered', 'hungUp', 'continued', 'failed'];
const ENDED_BY = ['caller', 'flow', 'dialplan', 'server'];

/** The flow a scenario file tests when it names none: `ivr.test.yaml` tests `ivr.yaml`. */
export function defaultFlowFile(scenarioFile: string): string {
  return resolve(dirname(scenarioFile), basename(scenarioFile).replace(/\.test\.ya?ml$/, '.yaml'));
}

/**
 * Reads a scenario file (`<flow>.test.yaml`) and the flow it tests. Every problem comes back as a
 * positioned diagnostic (`file:line:col`), never thrown: unknown keys (with suggestions), wrong
 * types, durations, unknown states and operations, and the flow's own errors.
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
  const doc = reader.map(parsed.value, [], ['flow', 'flows', 'scenarios', ...SHARED_KEYS]);
  const flowName = doc && typeof doc.flow === 'string' ? doc.flow : undefined;
  if (doc && doc.flow !== undefined && flowName === undefined)
    reader.problem('wrong-type', ['flow'], 'flow: expected the path of the flow file, relative to this file');
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
  if (!doc || !flow) return { ok: false, diagnostics: sortDiagnostics(reader.diagnostics) };
  reader.states = Object.keys(flow.document.states);
  const flows = await loadOtherFlows(doc.flows, file, reader);
  for (const [name, other] of Object.entries(flows))
    reader.flowStates.set(name, Object.keys(other.document.states));
  reader.declaredInputs = flow.document.inputs ?? {};
  const shared = reader.shared(doc, []);
  const scenarios: Scenario[] = [];
  const list = doc.scenarios;
  if (!Array.isArray(list) || list.length === 0) {
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
  value: unknown,
  file: string,
  reader: ScenarioReader,
): Promise<Record<string, Flow>> {
  const out: Record<string, Flow> = {};
  if (value === undefined) return out;
  const map = reader.map(value, ['flows'], Object.keys((value as object) ?? {}));
  for (const [name, path] of Object.entries(map ?? {})) {
    if (typeof path !== 'string') {
      reader.problem('wrong-type', ['flows', name], `flows.${name}: expected the path of a flow file`);
      continue;
    }
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

type Shared = Pick<TestCallOptions, 'inputs' | 'farEnds' | 'dialplan' | 'sounds'> & {
  /** Defaults of every caller (`call`), and the scenario's start time. */
  call: TestCallOptions;
  /** The callers by name (`calls`); without it, one caller named `caller`. */
  calls?: Readonly<Record<string, ScenarioCallOptions>>;
};

/** Checks the plain YAML value piece by piece, collecting positioned diagnostics. */
class ScenarioReader {
  readonly diagnostics: Diagnostic[] = [];
  /** The main flow's states. */
  states: readonly string[] = [];
  /** The states of the other flows calls may enter, by flow name. */
  flowStates = new Map<string, readonly string[]>();
  declaredInputs: Readonly<Record<string, InputDeclaration>> = {};

  constructor(
    private readonly file: string,
    private readonly locate: (d: Diagnostic) => Diagnostic,
  ) {}

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

  map(value: unknown, path: Path, keys: readonly string[]): Record<string, unknown> | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.problem('wrong-type', path, `expected a mapping with keys ${keys.join(', ')}`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (keys.includes(key)) continue;
      const near = keys.find((k) => k.toLowerCase() === key.toLowerCase() || similar(k, key));
      this.problem(
        'unknown-field',
        [...path, key],
        `unknown key "${key}"${near ? `. Did you mean "${near}"?` : ''} Expected one of: ${keys.join(', ')}`,
        'key',
      );
    }
    return value as Record<string, unknown>;
  }

  duration(value: unknown, path: Path): number | undefined {
    const ms = typeof value === 'number' || typeof value === 'string' ? parseDuration(value) : undefined;
    if (ms === undefined)
      this.problem(
        'invalid-duration',
        path,
        'expected a duration: seconds (5) or text with a unit (500ms, 2s, 1m)',
      );
    return ms;
  }

  string(value: unknown, path: Path, what: string): string | undefined {
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    this.problem('wrong-type', path, `expected ${what}`);
    return undefined;
  }

  stringRecord(value: unknown, path: Path): Record<string, string> | undefined {
    const map = this.map(value, path, Object.keys((value as object) ?? {}));
    if (!map) return undefined;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(map)) {
      const text = this.string(v, [...path, k], 'a text value');
      if (text !== undefined) out[k] = text;
    }
    return out;
  }

  shared(doc: Record<string, unknown>, path: Path, base?: Shared): Shared {
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
            ...(base?.sounds ?? []).filter((b) => !Object.hasOwn(doc.sounds as object, b.name)),
            ...this.sounds(doc.sounds, [...path, 'sounds']),
          ];
    const dialplan =
      doc.dialplan === undefined
        ? base?.dialplan
        : [base?.dialplan, this.string(doc.dialplan, [...path, 'dialplan'], 'extensions.conf text')]
            .filter(Boolean)
            .join('\n');
    // A scenario's own `calls` is its cast: it replaces the file's, rather than adding to it.
    const calls = doc.calls === undefined ? base?.calls : this.calls(doc.calls, [...path, 'calls']);
    return {
      call,
      ...(calls ? { calls } : {}),
      ...(inputs ? { inputs } : {}),
      ...(farEnds ? { farEnds } : {}),
      ...(sounds ? { sounds } : {}),
      ...(dialplan ? { dialplan } : {}),
    };
  }

  /** `calls: { moderator: { caller: "5551000" }, member: { at: 10s } }`: the callers, by name. */
  calls(value: unknown, path: Path): Record<string, ScenarioCallOptions> | undefined {
    const map = this.map(value, path, Object.keys((value as object) ?? {}));
    if (!map) return undefined;
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
      const entry = body === null || body === undefined ? {} : this.map(body, p, CALLS_ENTRY_KEYS);
      if (!entry) continue;
      const { at, flow, inputs, answers, ...rest } = entry;
      const call: Record<string, unknown> = { ...this.call(rest, p) };
      if (answers !== undefined) {
        if (typeof answers === 'string' && /^[^/\s]+\/[^/\s]+$/.test(answers)) call.answers = answers;
        else
          this.problem(
            'invalid-value',
            [...p, 'answers'],
            'answers: expected the endpoint whose phone this party is, written tech/resource (PJSIP/agent)',
          );
      }
      if (at !== undefined) {
        const ms = this.duration(at, [...p, 'at']);
        if (ms !== undefined) call.at = ms;
      }
      if (flow !== undefined) {
        if (typeof flow === 'string' && this.flowStates.has(flow)) call.flow = flow;
        else
          this.problem(
            'unknown-target',
            [...p, 'flow'],
            `flow: expected the name of a flow under flows: (${[...this.flowStates.keys()].join(', ') || 'none declared'})`,
          );
      }
      // Converted to the main flow's declared types here; a caller of another flow is checked by it at start.
      if (inputs !== undefined)
        call.inputs =
          call.flow === undefined
            ? this.inputs(inputs, [...p, 'inputs'])
            : this.map(inputs, [...p, 'inputs'], Object.keys((inputs as object) ?? {}));
      out[name] = call as ScenarioCallOptions;
    }
    return out;
  }

  /** Inputs converted to the types the flow declares; undeclared ones and misfits are reported at their key. */
  inputs(value: unknown, path: Path): Record<string, unknown> | undefined {
    const map = this.map(value, path, Object.keys((value as object) ?? {}));
    if (!map) return undefined;
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

  call(value: unknown, path: Path): TestCallOptions {
    if (value === undefined) return {};
    const map = this.map(value, path, CALL_KEYS);
    if (!map) return {};
    const out: Record<string, unknown> = {};
    for (const key of ['caller', 'callerName', 'extension', 'language'] as const)
      if (map[key] !== undefined) out[key] = this.string(map[key], [...path, key], 'text');
    if (map.variables !== undefined) out.variables = this.stringRecord(map.variables, [...path, 'variables']);
    if (map.args !== undefined) {
      if (Array.isArray(map.args)) out.args = map.args.map(String);
      else this.problem('wrong-type', [...path, 'args'], 'expected a list of Stasis arguments');
    }
    if (map.startAt !== undefined) {
      const at = map.startAt instanceof Date ? map.startAt.getTime() : Date.parse(String(map.startAt));
      if (Number.isFinite(at)) out.startAt = at;
      else
        this.problem(
          'invalid-value',
          [...path, 'startAt'],
          'expected a date and time such as 2026-01-04T10:00:00Z',
        );
    }
    return out as TestCallOptions;
  }

  farEnds(value: unknown, path: Path): Record<string, FarEndBehaviour> {
    const map = this.map(value, path, Object.keys((value as object) ?? {}));
    const out: Record<string, FarEndBehaviour> = {};
    for (const [endpoint, behaviour] of Object.entries(map ?? {})) {
      const p = [...path, endpoint];
      if (!/^[^/\s]+\/[^/\s]+$/.test(endpoint))
        this.problem(
          'invalid-value',
          p,
          `"${endpoint}": expected an endpoint written tech/resource, e.g. PJSIP/operator`,
          'key',
        );
      if (Array.isArray(behaviour)) {
        if (behaviour.length === 0) {
          this.problem(
            'invalid-value',
            p,
            'expected at least one behaviour, one per successive call: [busy, answer]',
          );
          continue;
        }
        const list = behaviour.map((b, i) => this.farEnd(b, [...p, i]));
        if (list.every((b): b is FarEnd => b !== undefined)) out[endpoint] = list;
      } else {
        const one = this.farEnd(behaviour, p);
        if (one !== undefined) out[endpoint] = one;
      }
    }
    return out;
  }

  /**
   * `sounds: { acme/welcome: 2.5s, acme/menu: { duration: 4s, languages: [en, fr] } }`: the
   * flow's own prompts the simulated server has.
   */
  sounds(value: unknown, path: Path): TestSound[] {
    const map = this.map(value, path, Object.keys((value as object) ?? {}));
    const out: TestSound[] = [];
    for (const [name, body] of Object.entries(map ?? {})) {
      const p = [...path, name];
      if (!/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(name) || name.includes('..')) {
        this.problem(
          'invalid-value',
          p,
          `"${name}": a sound name as played after sound: (acme/welcome)`,
          'key',
        );
        continue;
      }
      const spec =
        body !== null && typeof body === 'object' && !Array.isArray(body)
          ? this.map(body, p, ['duration', 'languages'])
          : { duration: body };
      if (!spec) continue;
      const ms = this.duration(spec.duration, typeof body === 'object' ? [...p, 'duration'] : p);
      if (ms === undefined) continue;
      const languages = spec.languages;
      if (
        languages !== undefined &&
        !(Array.isArray(languages) && languages.every((l) => typeof l === 'string'))
      ) {
        this.problem('wrong-type', [...p, 'languages'], 'languages: expected a list such as [en, fr]');
        continue;
      }
      out.push({ name, duration: ms, ...(languages ? { languages: languages as string[] } : {}) });
    }
    return out;
  }

  /** One far-end behaviour: a name, or `{ answerAfter: <duration> }`. */
  farEnd(behaviour: unknown, p: Path): FarEnd | undefined {
    if (typeof behaviour === 'string' && FAR_ENDS.includes(behaviour)) return behaviour as FarEnd;
    if (behaviour && typeof behaviour === 'object' && 'answerAfter' in behaviour) {
      const ms = this.duration((behaviour as { answerAfter: unknown }).answerAfter, [...p, 'answerAfter']);
      return ms === undefined ? undefined : { answerAfterMs: ms };
    }
    this.problem(
      'invalid-value',
      p,
      `expected ${FAR_ENDS.join(', ')}, { answerAfter: <duration> }, or a list of those (one per successive call)`,
    );
    return undefined;
  }

  scenario(
    value: unknown,
    path: Path,
    shared: Shared,
    flows: Readonly<Record<string, Flow>>,
  ): Scenario | undefined {
    const map = this.map(value, path, ['name', 'steps', ...SHARED_KEYS]);
    if (!map) return undefined;
    const name = typeof map.name === 'string' && map.name.trim() !== '' ? map.name : undefined;
    if (name === undefined) this.problem('missing-field', path, 'every scenario needs a name (name: ...)');
    const own = this.shared(map, path, shared);
    const { startAt, ...defaults } = own.call;
    const calls: Record<string, ScenarioCallOptions> = {};
    for (const [caller, options] of Object.entries(own.calls ?? { caller: {} }))
      calls[caller] = { ...defaults, ...options };
    const steps: ScenarioStep[] = [];
    if (!Array.isArray(map.steps) || map.steps.length === 0)
      this.problem(
        'missing-field',
        map.steps === undefined ? path : [...path, 'steps'],
        'steps: expected a list (wait, press, hangup, talk, hangupFarEnd, inject, expect)',
      );
    else
      map.steps.forEach((item, i) => {
        const step = this.step(item, [...path, 'steps', i], calls);
        if (step) steps.push(step);
      });
    if (name === undefined) return undefined;
    const options: ScenarioOptions = {
      calls,
      ...(startAt !== undefined ? { startAt } : {}),
      ...(own.inputs ? { inputs: own.inputs } : {}),
      ...(own.farEnds ? { farEnds: own.farEnds } : {}),
      ...(own.sounds ? { sounds: own.sounds } : {}),
      ...(own.dialplan ? { dialplan: own.dialplan } : {}),
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
    const callers = Object.keys(calls);
    if (!entry) {
      this.problem(
        'wrong-type',
        path,
        `a step is one key: ${STEP_KEYS.join(', ')}${callers.length > 1 ? `, or a caller's name (${callers.join(', ')})` : ''} (e.g. - press: "1")`,
      );
      return undefined;
    }
    const [kind, body] = entry;
    const p = typeof value === 'string' ? path : [...path, kind];
    // `- member: { press: "1" }` / `- member: hangup`: a step of one caller.
    if (call === undefined && calls[kind] !== undefined && !(STEP_KEYS as readonly string[]).includes(kind)) {
      const inner = this.step(body, p, calls, kind);
      return inner;
    }
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
    const states = this.statesOf(calls, call);
    switch (kind) {
      case 'wait':
      case 'talk': {
        const ms = this.duration(body, p);
        return ms === undefined ? undefined : { kind, ms, place, text, ...whose };
      }
      case 'press': {
        const digits = body === undefined ? undefined : String(body);
        if (digits === undefined || !/^[0-9A-D*#]+$/i.test(digits)) {
          this.problem('invalid-value', p, 'press: expected keys 0-9, *, #, A-D; quote them ("1", "*")');
          return undefined;
        }
        return { kind, digits, place, text, ...whose };
      }
      case 'hangup':
        if (body !== undefined && body !== null && body !== 'caller')
          this.problem(
            'invalid-value',
            p,
            'hangup: the caller hangs up; write "- hangup" (use hangupFarEnd for a dialled party)',
          );
        return { kind, place, text, ...whose };
      case 'hangupFarEnd': {
        const endpoint = this.string(body, p, 'an endpoint, e.g. PJSIP/operator');
        return endpoint === undefined ? undefined : { kind, endpoint, place, text, ...whose };
      }
      case 'inject': {
        const event = this.map(body, p, Object.keys((body as object) ?? {}));
        if (!event) return undefined;
        if (typeof event.type !== 'string') {
          this.problem('missing-field', p, 'inject: the event needs a type (e.g. type: ChannelUserevent)');
          return undefined;
        }
        return { kind, event: event as { type: string }, place, text, ...whose };
      }
      case 'expect': {
        const map = this.map(body, p, EXPECT_KEYS);
        if (!map) return undefined;
        if (call === undefined && callers.length > 1)
          for (const key of Object.keys(map).filter((k) => CALLER_EXPECTATIONS.includes(k)))
            this.problem(
              'missing-field',
              [...p, key],
              `${key} is about one caller's flow and this scenario has several (${callers.join(', ')}); say whose: - ${callers[0]}: { expect: { ${key}: ... } }`,
              'key',
            );
        const expectations = Object.entries(map)
          .flatMap(([key, v]) =>
            // action / noAction may list several actions: each must (not) have been made.
            (key === 'action' || key === 'noAction') && Array.isArray(v)
              ? v.map((item, i) => this.expectation(key, item, [...p, key, i], states, callers))
              : [this.expectation(key, v, [...p, key], states, callers)],
          )
          .filter((e): e is ScenarioExpectation => e !== undefined);
        return { kind, expectations, place, text, ...whose };
      }
      default: {
        const known = call === undefined ? [...STEP_KEYS, ...callers] : [...STEP_KEYS];
        const near = known.find((k) => similar(k, kind));
        this.problem(
          'unknown-step',
          p,
          `unknown step "${kind}"${near ? `. Did you mean "${near}"?` : ''} Steps: ${STEP_KEYS.join(', ')}${call === undefined && callers.length > 1 ? `; callers: ${callers.join(', ')}` : ''}`,
          'key',
        );
        return undefined;
      }
    }
  }

  private stateList(value: unknown, path: Path, states: readonly string[]): string[] | undefined {
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : undefined;
    if (!list) {
      this.problem('wrong-type', path, 'expected a state name or a list of state names');
      return undefined;
    }
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

  private matcher(value: unknown, path: Path): ActionMatcher | undefined {
    const matcher = this.readMatcher(value, path);
    if (matcher === undefined) return undefined;
    try {
      compileActionMatcher(matcher);
    } catch (error) {
      this.problem('invalid-value', path, (error as Error).message);
      return undefined;
    }
    return matcher;
  }

  private readMatcher(value: unknown, path: Path): ActionMatcher | undefined {
    if (typeof value === 'string') return value;
    const map = this.map(value, path, ['operation', 'method', 'path', 'params', 'times']);
    if (!map) return undefined;
    const pathValue = map.path === undefined ? undefined : fromYamlExpected(map.path);
    return {
      ...(map.operation !== undefined ? { operation: String(map.operation) } : {}),
      ...(map.method !== undefined ? { method: String(map.method) } : {}),
      ...(pathValue instanceof RegExp || typeof pathValue === 'string' ? { path: pathValue } : {}),
      ...(map.params !== undefined
        ? { params: fromYamlExpected(map.params) as Record<string, Expected> }
        : {}),
    };
  }

  private expectation(
    kind: string,
    value: unknown,
    path: Path,
    states: readonly string[],
    callers: readonly string[],
  ): ScenarioExpectation | undefined {
    switch (kind) {
      case 'action':
      case 'noAction': {
        const matcher = this.matcher(value, path);
        if (matcher === undefined) return undefined;
        const times = (value as { times?: unknown })?.times;
        if (kind === 'action' && times !== undefined && !(Number.isInteger(times) && (times as number) >= 0))
          this.problem('invalid-value', [...path, 'times'], 'times: expected a whole number');
        return kind === 'action' && typeof times === 'number' ? { kind, matcher, times } : { kind, matcher };
      }
      case 'visited':
      case 'notVisited':
      case 'states': {
        const list = this.stateList(value, path, states);
        return list ? { kind, states: list } : undefined;
      }
      case 'state': {
        const list = this.stateList(value, path, states);
        return list?.[0] !== undefined ? { kind, state: list[0] } : undefined;
      }
      case 'bridge': {
        const map = this.map(value, path, ['id', 'name', 'calls']);
        if (!map) return undefined;
        const calls =
          map.calls === undefined ? undefined : Array.isArray(map.calls) ? map.calls.map(String) : undefined;
        if (map.calls !== undefined && calls === undefined)
          this.problem(
            'wrong-type',
            [...path, 'calls'],
            'calls: expected a list of callers (names) or channel ids',
          );
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
      case 'server': {
        const map = this.map(value, path, ['channels', 'bridges', 'liveRecordings']);
        if (!map) return undefined;
        const out: Record<string, number> = {};
        for (const [key, v] of Object.entries(map)) {
          if (Number.isInteger(v) && (v as number) >= 0) out[key] = v as number;
          else this.problem('invalid-value', [...path, key], `${key}: expected a whole number (0 or more)`);
        }
        return { kind, ...out };
      }
      case 'userEvent': {
        if (typeof value === 'string') return { kind, name: value };
        const map = this.map(value, path, ['name', 'variables']);
        if (!map || typeof map.name !== 'string') {
          if (map)
            this.problem('missing-field', path, 'userEvent: expected the event name (name: VoicemailLeft)');
          return undefined;
        }
        return map.variables === undefined
          ? { kind, name: map.name }
          : { kind, name: map.name, variables: fromYamlExpected(map.variables) as Record<string, Expected> };
      }
      case 'end': {
        const map = value === null ? {} : this.map(value, path, ['status', 'by', 'within', 'after']);
        if (!map) return undefined;
        const end: { -readonly [K in keyof EndExpectation]: EndExpectation[K] } = {};
        if (map.status !== undefined) {
          if (STATUSES.includes(String(map.status))) end.status = map.status as EndExpectation['status'];
          else
            this.problem(
              'invalid-value',
              [...path, 'status'],
              `status: expected one of ${STATUSES.join(', ')}`,
            );
        }
        if (map.by !== undefined) {
          if (ENDED_BY.includes(String(map.by))) end.by = map.by as EndExpectation['by'];
          else this.problem('invalid-value', [...path, 'by'], `by: expected one of ${ENDED_BY.join(', ')}`);
        }
        for (const key of ['within', 'after'] as const) {
          if (map[key] === undefined) continue;
          const ms = this.duration(map[key], [...path, key]);
          if (ms !== undefined) end[key] = ms;
        }
        return { kind, end };
      }
      default:
        return undefined;
    }
  }
}

/** One edit apart, or one a prefix of the other: close enough to suggest. */
function similar(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x.startsWith(y) || y.startsWith(x)) return Math.abs(x.length - y.length) <= 3;
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const swapped = x[i] === y[i + 1] && x[i + 1] === y[i] && x.slice(i + 2) === y.slice(i + 2);
  return (
    swapped ||
    x.slice(i + 1) === y.slice(i + 1) ||
    x.slice(i + 1) === y.slice(i) ||
    x.slice(i) === y.slice(i + 1)
  );
}
