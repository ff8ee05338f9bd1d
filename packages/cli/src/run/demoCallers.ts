import type {
  FlowTestCall,
  Scenario,
  ScenarioSuite,
  ScenarioWorldOptions,
  TestCallOptions,
  TestDuration,
} from '@ringflow/testing';

/** One thing a demo caller does, at a virtual time from the start of its call. */
export interface DemoAction {
  readonly at: number;
  readonly act: (call: FlowTestCall) => Promise<void>;
}

/** A simulated caller of the demo: who calls, and what they do. */
export interface DemoCaller {
  readonly label: string;
  readonly options: TestCallOptions;
  /** What the caller does; times from its call's start, or from its scene's start in a scene. */
  readonly script: readonly DemoAction[];
  /** The callers of one scenario with several calls share one simulator (a queue, a room). */
  readonly scene?: DemoScene;
}

/** Where a caller stands in a scenario with several calls. */
export interface DemoScene {
  /** The scene's number: callers with the same one run together. */
  readonly id: number;
  /** The caller's name in the scenario (`member`, `agent`). */
  readonly name: string;
  /** When it calls, from the scene's start. */
  readonly at: TestDuration;
  /** The flow its call enters (a scenario's `flows:`), when not the demo's own. */
  readonly flow?: string;
  /** The scene's world: far ends, sounds, other flows... (the same for all its callers). */
  readonly world: ScenarioWorldOptions;
}

const DIGIT_MS = 200; // FlowTestCall.press: 100 ms per key and 100 ms between keys

/**
 * The callers of `ringflow run --demo`: one per scenario of the flow's scenario file, doing what
 * the scenario does (keys, silences, hangups, far ends); its expectations are not checked here
 * (that is `ringflow test`).
 *
 * @example
 * const callers = demoCallersFromSuite(suite); // [{ label: 'sales sub-menu, then ...', script: [...] }]
 */
export function demoCallersFromSuite(suite: ScenarioSuite): DemoCaller[] {
  let numbered = 0;
  return suite.scenarios.flatMap((scenario, index) => {
    if (Object.keys(scenario.options.calls).length > 1) return sceneCallers(scenario, index);
    numbered++;
    // One caller: it does the steps about it, and the scenario's own.
    const { calls, flows: _flows, ...world } = scenario.options;
    const [first, options] = Object.entries(calls)[0] ?? ['caller', {}];
    const { at: _at, flow: _flow, ...call } = options;
    // Callers the scenario does not name get numbers of their own, to tell them apart.
    const caller = call.caller ?? `55501${String(numbered).padStart(2, '0')}`;
    return [
      {
        label: scenario.name,
        options: { ...world, ...call, caller },
        script: scriptsOf(scenario, [first]).get(first)!,
      },
    ];
  });
}

/**
 * What each named caller of a scenario does, at times from the scenario's start: the steps about
 * it, and the scenario's own (an agent hanging up, `hangupFarEnd`) for the first one.
 */
function scriptsOf(scenario: Scenario, names: readonly string[]): Map<string, DemoAction[]> {
  const scripts = new Map<string, DemoAction[]>(names.map((n) => [n, []]));
  let at = 0;
  for (const step of scenario.steps) {
    if (step.kind === 'wait') at += step.ms;
    const action = actionOf(step, at);
    if (action) scripts.get(step.call ?? names[0]!)?.push(action);
    if (step.kind === 'press') at += step.digits.length * DIGIT_MS;
    if (step.kind === 'talk') at += step.ms;
  }
  return scripts;
}

/**
 * The callers of a scenario with several calls, run together on one simulator as the scenario
 * does (they share its queues and rooms). Times count from the scene's start.
 */
function sceneCallers(scenario: Scenario, index: number): DemoCaller[] {
  const { calls, ...world } = scenario.options;
  const names = Object.keys(calls);
  const scripts = scriptsOf(scenario, names);
  return names.map((name, n) => {
    const { at: arrives, flow, ...call } = calls[name]!;
    const caller = call.caller ?? `55${String(index + 1).padStart(2, '0')}${String(n + 1).padStart(3, '0')}`;
    return {
      label: `${scenario.name} (${name})`,
      // The scenario's inputs are each call's unless the call has its own (as in `ringflow test`).
      options: {
        ...call,
        caller,
        ...((call.inputs ?? world.inputs) ? { inputs: call.inputs ?? world.inputs } : {}),
      },
      script: scripts.get(name)!,
      scene: {
        id: index,
        name,
        world,
        at: arrives ?? 0,
        ...(flow !== undefined ? { flow } : {}),
      },
    };
  });
}

/** What a caller does at a step of its scenario (nothing for waits and expectations). */
function actionOf(step: Scenario['steps'][number], at: number): DemoAction | undefined {
  switch (step.kind) {
    case 'press':
      return { at, act: (call) => call.press(step.digits) };
    case 'talk':
      return { at, act: (call) => call.talk(step.ms) };
    case 'hangup':
      return { at, act: (call) => call.hangUp() };
    case 'hangupFarEnd':
      return { at, act: (call) => call.hangUpFarEnd(step.endpoint) };
    case 'inject':
      return { at, act: (call) => call.inject(step.event) };
    default:
      return undefined;
  }
}

/**
 * The caller of `ringflow run` without `--demo`: calls, listens without pressing anything, and
 * hangs up after `stayMs` if the flow has not ended the call by then.
 */
export function silentCaller(stayMs: number): DemoCaller {
  return {
    label: 'a caller who listens and presses nothing',
    options: { caller: '5550100' },
    script: [{ at: stayMs, act: (call) => call.hangUp() }],
  };
}
