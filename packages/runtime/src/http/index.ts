export { startOpsServer } from './startOpsServer.ts';
export type { OpsRequestHandler, OpsServer, OpsServerOptions, Readiness } from './startOpsServer.ts';
export { applicationReadiness } from './applicationReadiness.ts';
export type { ConnectionsSource } from './applicationReadiness.ts';
