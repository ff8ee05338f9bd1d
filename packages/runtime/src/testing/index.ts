/**
 * Test support for the runtime's own tests and for users testing runtime code without a
 * simulator: a small fake server. Prefer `@ringflow/simulator` for scenario tests.
 */
export { FakeAriServer } from './FakeAriServer.ts';
export type { CallEvent } from '../call/CallHandle.ts';
