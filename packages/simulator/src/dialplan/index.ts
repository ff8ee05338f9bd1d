/**
 * The simulator's dialplan: the real server's `extensions.conf` syntax, its extension
 * matching, and an interpreter that runs a channel through it via a `DialplanHost`.
 */
export type {
  Dialplan,
  DialplanContext,
  DialplanExtension,
  DialplanHint,
  DialplanInclude,
  DialplanIssue,
  DialplanLocation,
  DialplanPriority,
  ResolvedLocation,
  SourcePosition,
} from './Dialplan.ts';
export { formatLocation } from './Dialplan.ts';
export type {
  DialplanEnd,
  DialplanEndReason,
  DialplanHost,
  DialplanStep,
  StasisExit,
} from './DialplanHost.ts';
export { DialplanSyntaxError, formatIssue } from './DialplanSyntaxError.ts';
export { compareExtensions, isPattern, matchExtension } from './extensionPattern.ts';
export { findExtension, findPriority, type PriorityLookup } from './findPriority.ts';
export { defaultDialplanPath, loadDefaultDialplan, loadDialplanFile } from './loadDialplanFile.ts';
export { type ParseDialplanOptions, parseDialplan } from './parseDialplan.ts';
export {
  type ContinueRequest,
  type ContinueResolution,
  resolveContinueTarget,
} from './resolveContinueTarget.ts';
export { type RunDialplanOptions, runDialplan } from './runDialplan.ts';
export { substituteVariables, type VariableScope } from './substituteVariables.ts';
export { dialplanApplications, findApplication } from './applications/index.ts';
export type { DialplanApplication } from './applications/index.ts';
