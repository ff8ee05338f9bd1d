import type { FlowTestCall, ScenarioSuite, TestCallOptions } from '@ringflow/testing';

/** One thing a demo caller does, at a virtual time from the start of its call. */
export interface DemoAction {
  readonly at: number;
  readonly act: (call: FlowTestCall) => Promise<void>;
}

/** A simulated caller of the demo: who calls, and what they do. */
export interface DemoCaller {
  readonly label: string;
  readonly options: TestCallOptions;
  readonly script: readonly DemoAction[];
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
  return suite.scenarios.map((scenario, index) => {
    const script: DemoAction[] = [];
    let at = 0;
    // The demo plays each scenario's first caller (the steps of the others are left out).
    const { calls, flows: _flows, ...world } = scenario.options;
    const [first, options] = Object.entries(calls)[0] ?? ['caller', {}];
    const { at: _at, flow: _flow, ...call } = options;
    for (const step of scenario.steps) {
      if (step.call !== undefined && step.call !== first) continue;
      switch (step.kind) {
        case 'wait':
          at += step.ms;
          break;
        case 'press':
          script.push({ at, act: (call) => call.press(step.digits) });
          at += step.digits.length * DIGIT_MS;
          break;
        case 'talk':
          script.push({ at, act: (call) => call.talk(step.ms) });
          at += step.ms;
          break;
        case 'hangup':
          script.push({ at, act: (call) => call.hangUp() });
          break;
        case 'hangupFarEnd':
          script.push({ at, act: (call) => call.hangUpFarEnd(step.endpoint) });
          break;
        case 'inject':
          script.push({ at, act: (call) => call.inject(step.event) });
          break;
        case 'expect':
          break;
      }
    }
    // Callers the scenario does not name get numbers of their own, to tell them apart.
    const caller = call.caller ?? `55501${String(index + 1).padStart(2, '0')}`;
    return { label: scenario.name, options: { ...world, ...call, caller }, script };
  });
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
