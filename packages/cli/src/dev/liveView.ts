import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Flow } from '@ringflow/dsl';
import type { CallSession, OpsRequestHandler } from '@ringflow/runtime';
import type { AnyStateMachine } from 'xstate';
import { ConsoleFeed } from './ConsoleFeed.ts';
import { consoleMachine } from './consoleMachine.ts';
import { CONSOLE_PAGE } from './consolePage.ts';
import { describeFlows } from './describeFlows.ts';
import { watchCalls } from './watchCalls.ts';

/** Where the live view is mounted on the operations server. */
export const LIVE_VIEW_PATH = '/console/';

/** The console's read-only live view of a running application (`ringflow run --http`). */
export interface LiveView {
  /** Mount it on the operations server (`addHandler`): it answers under {@link LIVE_VIEW_PATH}. */
  readonly handler: OpsRequestHandler;
  /** The flow's call machine, whose calls tell the view their user events and failures. */
  machineOf(flow: Flow, inputs: Readonly<Record<string, unknown>>): AnyStateMachine;
  /** Follows the application's calls (its `calls$`). */
  follow(calls$: { subscribe(next: (session: CallSession) => void): unknown }): void;
  /** Ends the open feeds. */
  close(): void;
}

/**
 * The live view of `ringflow run --http`: the console page without softphone or scenarios, the
 * flow as a diagram with each call in progress lit in its state, and each call's timeline (states
 * and the timers they arm, events in, variables as they change, user events, step failures with
 * their cause, the end). Read-only: nothing in it acts on calls. It sits behind the operations
 * server's own Basic auth.
 *
 * @example
 * const view = createLiveView([flow]);
 * const app = createApplication({ ..., call: view.machineOf(flow, inputs) });
 * view.follow(app.calls$);
 * ops.addHandler(view.handler); // http://127.0.0.1:9464/console/
 */
export function createLiveView(flows: readonly Flow[]): LiveView {
  const feed = new ConsoleFeed();
  const page = CONSOLE_PAGE.replace('<body>', '<body data-mode="live">').replace(
    '<title>ringflow dev</title>',
    '<title>ringflow live</title>',
  );
  const described = describeFlows(
    flows.map((flow) => ({ name: flow.document.name, file: flow.document.name, flow })),
  );
  const byName = new Map(flows.map((f) => [f.document.name, f]));
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (path === LIVE_VIEW_PATH.slice(0, -1)) {
      // The page's requests are relative: it must be served from the folder.
      res.writeHead(308, { location: LIVE_VIEW_PATH });
      res.end();
      return true;
    }
    if (path === LIVE_VIEW_PATH) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page);
      return true;
    }
    if (path === `${LIVE_VIEW_PATH}api/flows`) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(described));
      return true;
    }
    if (path === `${LIVE_VIEW_PATH}api/feed`) {
      feed.serve(req, res);
      return true;
    }
    return false;
  };
  return {
    handler,
    machineOf: (flow, inputs) => consoleMachine(flow, inputs, feed),
    follow(calls$) {
      watchCalls(calls$, feed, (session) => byName.get(session.application ?? '') ?? flows[0], {
        events: true,
      });
    },
    close: () => feed.close(),
  };
}
