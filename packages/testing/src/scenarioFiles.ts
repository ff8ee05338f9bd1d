/**
 * @ringflow/testing/scenario-files: reading and checking scenario files (`*.test.yaml`) without
 * the harness that runs them (no simulator, no runtime), for tools that only validate them
 * (`ringflow validate`, editors).
 */
export { defaultFlowFile, loadScenarioFile } from './loadScenarioFile.ts';
export type {
  Place,
  Scenario,
  ScenarioExpectation,
  ScenarioStep,
  ScenarioSuite,
  ScenarioSuiteResult,
} from './loadScenarioFile.ts';
export { findScenarioFiles } from './findScenarioFiles.ts';
export { CALLER_WORD_MS } from './agents/callerWords.ts';
