/**
 * @ringflow/dsl: call flows written in YAML or TypeScript, validated with positioned errors,
 * compiled to XState machines, exported as Mermaid diagrams.
 */
export { parseFlow, loadFlowFile } from './parseFlow.ts';
export { defineFlow, expr } from './defineFlow.ts';
export { validateFlow, sortDiagnostics } from './validate/validateFlow.ts';
export type { Flow, FlowResult } from './validate/validateFlow.ts';
export { FlowValidationError } from './FlowValidationError.ts';
export { toSarif } from './validate/toSarif.ts';
export { describeFileError } from './files/describeFileError.ts';
export { findFiles } from './files/findFiles.ts';
export type { FoundFiles } from './files/findFiles.ts';
export { convertFlowInputs, convertInputValue, INPUT_TYPES } from './inputs/convertFlowInputs.ts';
export type {
  InputConversion,
  InputDeclaration,
  InputProblem,
  InputType,
} from './inputs/convertFlowInputs.ts';
export { FlowInputError, flowInputsOrThrow } from './inputs/FlowInputError.ts';
export { DiagnosticCode, formatDiagnostic, formatPath } from './validate/Diagnostic.ts';
export type { Diagnostic, DiagnosticName, Path } from './validate/Diagnostic.ts';
export { compileFlow } from './compile/compileFlow.ts';
export type { CompileOptions } from './compile/compileFlow.ts';
export { callFromStasisStart } from './compile/FlowHost.ts';
export type {
  FlowCall,
  FlowAri,
  FlowHost,
  FlowLog,
  FlowMachineInput,
  FlowOutput,
} from './compile/FlowHost.ts';
export { createFlowCallMachine, hostFromCall } from './runtime/createFlowCallMachine.ts';
export { toMermaid } from './mermaid/toMermaid.ts';
export { flowGraph, ANY_STATE } from './graph/flowGraph.ts';
export type { FlowGraph, FlowTransition } from './graph/flowGraph.ts';
export { flowJsonSchema } from './schema/flowJsonSchema.ts';
export {
  compileExpression,
  evaluateExpression,
  evaluateCondition,
  ExpressionError,
  EXPRESSION_LIMITS,
} from './expr/Expression.ts';
export type { ExpressionScope, CompiledExpression } from './expr/Expression.ts';
export { parseOpeningHours, isOpenAt } from './expr/openingHours.ts';
export { steps } from './steps/index.ts';
export type { StepName } from './steps/index.ts';
export type {
  FlowDocument,
  StateDocument,
  StepDocument,
  SubflowDocument,
  TransitionDocument,
} from './model/flowSchema.ts';
export { parseDuration } from './schema/s.ts';
export type { Duration, ExprValue, Value } from './schema/s.ts';
// For tools built on flows (the testing package, editors): YAML with positions, and diagnostics
// made the way the validator makes them (durations: parseDuration above).
export { parseYamlWithPositions } from './yaml/parseYamlWithPositions.ts';
export type { PositionedYaml } from './yaml/parseYamlWithPositions.ts';
export { diagnostic } from './validate/Diagnostic.ts';
// The schema language the flow format is written in, for tools that check their own YAML files the
// same way (scenario files): builders, and the checker (every problem with its path, "did you mean").
export { s } from './schema/s.ts';
export type { Infer, Schema } from './schema/s.ts';
export { checkValue } from './schema/checkValue.ts';
