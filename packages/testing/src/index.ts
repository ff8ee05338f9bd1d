/**
 * @ringflow/testing: unit tests of call flows with simulated events, in virtual time, on the
 * in-process simulator through the real runtime: one call (`testFlow`) or several (`testCalls`);
 * YAML scenarios; coverage of states and transitions.
 */
export { testFlow } from './testFlow.ts';
export { testCalls, CallScenario } from './CallScenario.ts';
export { FlowTestCall } from './FlowTestCall.ts';
export type { CallEnd, EndedBy, EndExpectation } from './FlowTestCall.ts';
export { toMs } from './durations.ts';
export { until, type UntilOptions } from './until.ts';
export { SCENARIO_TRANSPORTS } from './TestCallOptions.ts';
export type {
  FarEnd,
  FarEndBehaviour,
  ScenarioCallOptions,
  ScenarioOptions,
  ScenarioTransport,
  ScenarioWorldOptions,
  TestCallOptions,
  TestDuration,
  TestSound,
} from './TestCallOptions.ts';
export type { ActionMatcher } from './ActionMatcher.ts';
export type { Expected } from './matchValue.ts';
export { matchValue } from './matchValue.ts';
export { FlowExpectationError } from './FlowExpectationError.ts';
export { formatTimeline, formatOffset, formatFailure } from './CallTimeline.ts';
export type {
  RecordedAction,
  RecordedEvent,
  RecordedFailure,
  RecordedNote,
  RecordedOutcome,
  RecordedState,
  RecordedWebhook,
  TimelineEntry,
} from './CallTimeline.ts';
export { FlowCoverage, formatCoverage } from './FlowCoverage.ts';
export type { CoverageReport } from './FlowCoverage.ts';
export { operationOfRequest } from './operationOfRequest.ts';
export { FakeWebhooks } from './http/FakeWebhooks.ts';
export type {
  FakeWebhooksOptions,
  WebhookAnswer,
  WebhookAnswers,
  WebhookExpectation,
  WebhookRequest,
} from './http/FakeWebhooks.ts';
export { WEBHOOK_METHODS } from './http/webhookKeys.ts';
// Reading scenario files (also on its own, without the harness: @ringflow/testing/scenario-files).
export * from './scenarioFiles.ts';
export { runScenario } from './runScenario.ts';
export type { RunScenarioOptions, ScenarioResult } from './runScenario.ts';
export { runScenarioFiles } from './runScenarioFiles.ts';
export type { ScenarioRun, ScenarioRunListener } from './runScenarioFiles.ts';
export {
  CALLER_WORD_MS,
  type HeardFromBot,
  ScenarioAgents,
  type ScenarioBot,
} from './agents/ScenarioAgents.ts';
export type { BotScript, BotSession, BotTurn, ScriptSurprise } from './agents/BotScript.ts';
export type { BotExchange } from './agents/BotExchange.ts';
export type { AudioBotFactory, AudioScenarioBot, BotEnvironment } from './agents/AudioScenarioBot.ts';
