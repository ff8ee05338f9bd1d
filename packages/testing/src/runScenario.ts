import { type CallScenario, testCalls } from './CallScenario.ts';
import { checkBotExpectation } from './agents/botExpectation.ts';
import type { TimelineEntry } from './CallTimeline.ts';
import { FlowExpectationError } from './FlowExpectationError.ts';
import type { ScenarioTransport } from './TestCallOptions.ts';
import type {
  Place,
  Scenario,
  ScenarioExpectation,
  ScenarioStep,
  ScenarioSuite,
} from './loadScenarioFile.ts';

/** How scenarios are run. */
export interface RunScenarioOptions {
  /**
   * How the application and the server talk, over what the scenario (or its file) says
   * (`ringflow test --transport`); see {@link ScenarioTransport}.
   */
  readonly transport?: ScenarioTransport;
  /** Keep the scenario's whole timeline in the result (a failure's message has it anyway). */
  readonly timeline?: boolean;
}

/** How one scenario went. */
export interface ScenarioResult {
  readonly suite: string;
  readonly scenario: string;
  readonly place: Place;
  readonly passed: boolean;
  /** For a failure: where (the step) and why, with the call's timeline. */
  readonly failure?: { readonly place: Place; readonly step: string; readonly message: string };
  /** States each call entered, in order, by caller (for coverage). */
  readonly calls: readonly { readonly name: string; readonly states: readonly string[] }[];
  /** Virtual time the scenario covered, in milliseconds. */
  readonly virtualMs: number;
  /** How the application and the server talked. */
  readonly transport: ScenarioTransport;
  /** Everything that happened, passed or not (with `{ timeline: true }`): what a console shows. */
  readonly timeline?: readonly TimelineEntry[];
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
export async function runScenario(
  suite: ScenarioSuite,
  scenario: Scenario,
  options: RunScenarioOptions = {},
): Promise<ScenarioResult> {
  let world: CallScenario | undefined;
  let current: ScenarioStep | undefined;
  const transport = options.transport ?? scenario.options.transport ?? 'http';
  const base = { suite: suite.file, scenario: scenario.name, place: scenario.place, transport };
  try {
    world = await testCalls(suite.flow, { ...scenario.options, transport });
    for (const step of scenario.steps) {
      current = step;
      await runStep(world, step);
      // A webhook request nothing answered fails the scenario at the step it was made in.
      world.expectWebhooksAnswered();
    }
    return {
      ...base,
      passed: true,
      calls: statesOf(world),
      virtualMs: elapsed(world),
      ...(options.timeline ? { timeline: world.timeline() } : {}),
    };
  } catch (error) {
    const message = rootCause(world, error);
    return {
      ...base,
      passed: false,
      failure: {
        place: current?.place ?? scenario.place,
        step: current?.text ?? 'start of the call',
        message,
      },
      calls: world ? statesOf(world) : [],
      virtualMs: world ? elapsed(world) : 0,
      ...(options.timeline && world ? { timeline: world.timeline() } : {}),
    };
  } finally {
    await world?.close();
  }
}

/**
 * A failure's message: when a webhook request went unanswered, that comes first (what the step
 * then saw follows from it: the flow got a network error instead of an answer).
 */
function rootCause(world: CallScenario | undefined, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!world?.webhooks || world.webhooks.unmatched().length === 0) return message;
  try {
    world.expectWebhooksAnswered();
  } catch (unanswered) {
    if (!(unanswered instanceof FlowExpectationError)) return message;
    if (error instanceof FlowExpectationError && error.expected === unanswered.expected) return message;
    const then =
      error instanceof FlowExpectationError ? `expected ${error.expected}, but ${error.happened}` : message;
    return new FlowExpectationError(
      unanswered.expected,
      `${unanswered.happened}\n(then the step failed: ${then})`,
      unanswered.timeline,
    ).message;
  }
  return message;
}

function statesOf(world: CallScenario) {
  return world.callers.map((c) => ({ name: c.name, states: c.states() }));
}

function elapsed(world: CallScenario): number {
  const timeline = world.timeline();
  return timeline[timeline.length - 1]?.at ?? 0;
}

async function runStep(world: CallScenario, step: ScenarioStep): Promise<void> {
  // A step names its caller, or there is only one (the reader made sure of it for caller steps).
  const call = world.call(step.call ?? world.callers[0]!.name);
  switch (step.kind) {
    case 'wait':
      return world.wait(step.ms);
    case 'press':
      return call.press(step.digits);
    case 'hangup':
      return call.hangUp();
    case 'talk':
      return call.talk(step.ms);
    case 'say':
      return world.agents.say(call, step.words);
    case 'hangupFarEnd':
      return world.hangUpFarEnd(step.endpoint);
    case 'inject':
      return world.inject(step.event, step.call === undefined ? undefined : call);
    case 'expect':
      // The keys of one `expect` are checked in the order written: `state: x` then `end` checks
      // the state now, then lets time run to the end. A check that fails before an `end` of the
      // same step says so, in case it was meant for the end.
      for (const [i, expectation] of step.expectations.entries()) {
        try {
          await check(world, step.call, expectation);
        } catch (error) {
          const endLater = step.expectations.slice(i + 1).some((e) => e.kind === 'end');
          if (!endLater || !(error instanceof FlowExpectationError)) throw error;
          throw new FlowExpectationError(
            error.expected,
            `${error.happened}\n(checked before the end: the keys of an expect are checked in the order written; put end first to check this at the end)`,
            error.timeline,
          );
        }
      }
      return;
    default:
      return assertNever(step);
  }
}

/**
 * Checks one expectation: about the named caller, or, without one, about the room (any call's
 * actions and user events, bridges, the server) — or the only caller for what concerns one flow.
 */
async function check(world: CallScenario, caller: string | undefined, e: ScenarioExpectation): Promise<void> {
  const call = world.call(caller ?? world.callers[0]!.name);
  const about = caller === undefined && world.callers.length > 1 ? world : call;
  switch (e.kind) {
    case 'action':
      about.expectAction(e.matcher, e.times === undefined ? {} : { times: e.times });
      return;
    case 'noAction':
      return about.expectNoAction(e.matcher);
    case 'visited':
      return call.expectVisited(...e.states);
    case 'notVisited':
      return call.expectNotVisited(...e.states);
    case 'states':
      return call.expectStates(e.states);
    case 'state':
      return call.expectState(e.state);
    case 'userEvent':
      about.expectUserEvent(e.name, e.variables);
      return;
    case 'end':
      await call.expectEnd(e.end);
      return;
    case 'bridge':
      return world.expectBridge(e);
    case 'server':
      return world.expectServer(e);
    case 'http':
      world.expectWebhook(e.key, e.expected, caller);
      return;
    case 'bot':
      return checkBotExpectation(world.agents, call.name, call.channelId, e.bot, (x, h) => world.fail(x, h));
    default:
      return assertNever(e);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected scenario item ${JSON.stringify(value)}`);
}
