import { type FlowTestCall, testFlow } from './FlowTestCall.ts';
import type {
  Place,
  Scenario,
  ScenarioExpectation,
  ScenarioStep,
  ScenarioSuite,
} from './loadScenarioFile.ts';

/** How one scenario went. */
export interface ScenarioResult {
  readonly suite: string;
  readonly scenario: string;
  readonly place: Place;
  readonly passed: boolean;
  /** For a failure: where (the step) and why, with the call's timeline. */
  readonly failure?: { readonly place: Place; readonly step: string; readonly message: string };
  /** States the call entered, in order (for coverage). */
  readonly states: readonly string[];
  /** Virtual time the scenario covered, in milliseconds. */
  readonly virtualMs: number;
}

/**
 * Runs one scenario of a suite: a fresh simulator and runtime, the steps in order, every
 * expectation checked at its step. Never throws for a failing expectation: the result says which
 * step failed and why.
 *
 * @example
 * const result = await runScenario(suite, suite.scenarios[0]!);
 * if (!result.passed) console.log(result.failure?.message);
 */
export async function runScenario(suite: ScenarioSuite, scenario: Scenario): Promise<ScenarioResult> {
  let call: FlowTestCall | undefined;
  let current: ScenarioStep | undefined;
  const base = { suite: suite.file, scenario: scenario.name, place: scenario.place };
  try {
    call = await testFlow(suite.flow, scenario.call);
    for (const step of scenario.steps) {
      current = step;
      await runStep(call, step);
    }
    return { ...base, passed: true, states: call.states(), virtualMs: elapsed(call) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      passed: false,
      failure: {
        place: current?.place ?? scenario.place,
        step: current?.text ?? 'start of the call',
        message,
      },
      states: call?.states() ?? [],
      virtualMs: call ? elapsed(call) : 0,
    };
  } finally {
    await call?.close();
  }
}

function elapsed(call: FlowTestCall): number {
  const timeline = call.timeline();
  return timeline[timeline.length - 1]?.at ?? 0;
}

async function runStep(call: FlowTestCall, step: ScenarioStep): Promise<void> {
  switch (step.kind) {
    case 'wait':
      return call.wait(step.ms);
    case 'press':
      return call.press(step.digits);
    case 'hangup':
      return call.hangUp();
    case 'talk':
      return call.talk(step.ms);
    case 'hangupFarEnd':
      return call.hangUpFarEnd(step.endpoint);
    case 'inject':
      return call.inject(step.event);
    case 'expect':
      for (const expectation of step.expectations) await check(call, expectation);
      return;
    default:
      return assertNever(step);
  }
}

async function check(call: FlowTestCall, e: ScenarioExpectation): Promise<void> {
  switch (e.kind) {
    case 'action':
      call.expectAction(e.matcher, e.times === undefined ? {} : { times: e.times });
      return;
    case 'noAction':
      return call.expectNoAction(e.matcher);
    case 'visited':
      return call.expectVisited(...e.states);
    case 'notVisited':
      return call.expectNotVisited(...e.states);
    case 'states':
      return call.expectStates(e.states);
    case 'state':
      return call.expectState(e.state);
    case 'userEvent':
      call.expectUserEvent(e.name, e.variables);
      return;
    case 'end':
      await call.expectEnd(e.end);
      return;
    default:
      return assertNever(e);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected scenario item ${JSON.stringify(value)}`);
}
