/**
 * @ringflow/client/interface: the part of the client that opens no connection — the description
 * of the ARI interface, the errors, the clocks. Code that only needs to know the interface (the
 * flow validator and compiler, `ringflow validate`) imports this entry and loads no HTTP client,
 * no WebSocket library and no RxJS. `@ringflow/client` exports all of it too.
 *
 * @example
 * import { findOperation } from '@ringflow/client/interface';
 * findOperation('channels', 'answer')?.method; // 'POST'
 */
export * from './description/index.ts';
export { handleSpecs } from './description/handles.ts';
export type { HandleName, HandleSpec } from './description/handles.ts';
export { validateParams, parseParamText, paramValues } from './description/validate.ts';
export type { ParamIssue } from './description/validate.ts';
export * from './errors/index.ts';
export * from './clock/index.ts';
export * from './dialplan/index.ts';
// Narrowing an event needs only the description's event names.
export { isEventType, isKnownEvent } from './events/isKnownEvent.ts';
export type * from './generated/types.ts';
