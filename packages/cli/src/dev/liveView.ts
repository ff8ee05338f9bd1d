import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Flow } from '@ringflow/dsl';
import type { AgentServices, CallSession, OpsRequestHandler } from '@ringflow/runtime';
import type { AnyStateMachine } from 'xstate';
import { CallRecorder } from './CallRecorder.ts';
import { callToScenario, scenarioFileFor } from './callToScenario.ts';
import { ConsoleFeed } from './ConsoleFeed.ts';
import { consoleMachine } from './consoleMachine.ts';
import { consolePage } from './consolePage.ts';
import { describeFlows } from './describeFlows.ts';
import type { AgentTurn } from './feedMessages.ts';
import type { FlowScenarioResult } from './flowScenarios.ts';
import { observeAgentServices } from './observedAgents.ts';
import { watchCalls } from './watchCalls.ts';

/** Where the live view is mounted on the operations server. */
export const LIVE_VIEW_PATH = '/console/';

/** A flow the application runs, and the file it was read from (a saved call's scenario names it). */
export interface LiveFlow {
  readonly flow: Flow;
  readonly file: string;
}

/** A call of the live view as a scenario file, for the user to download (see {@link createLiveView}). */
export interface LiveScenario {
  /** The name to save it under, beside the flow (`desk.1732.17.test.yaml`). */
  readonly fileName: string;
  readonly scenario: string;
  readonly yaml: string;
  /** How the scenario went, replayed at once on the flow this process runs. */
  readonly replay: FlowScenarioResult | undefined;
}

/** The console's read-only live view of a running application (`ringflow run --http`). */
export interface LiveView {
  /** Mount it on the operations server (`addHandler`): it answers under {@link LIVE_VIEW_PATH}. */
  readonly handler: OpsRequestHandler;
  /** The flow's call machine, whose calls tell the view their user events, failures and requests. */
  /**
   * The machine of `flow`'s calls, each shown on the page; `agents` gives its agent steps their
   * services, every exchange with a bot a turn on the call's timeline.
   */
  machineOf(flow: Flow, inputs: Readonly<Record<string, unknown>>, agents?: AgentServices): AnyStateMachine;
  /** Follows the application's calls (its `calls$`). */
  follow(calls$: { subscribe(next: (session: CallSession) => void): unknown }): void;
  /** A call seen by the view as a scenario file (undefined for a call it did not see start). */
  scenarioOf(id: string): Promise<LiveScenario | undefined>;
  /** Ends the open feeds. */
  close(): void;
}

/**
 * The live view of `ringflow run --http`: the console page without softphone or scenarios, the
 * flow as a diagram with each call in progress lit in its state, and each call's timeline (states
 * and the timers they arm, events in, variables as they change, user events, step failures with
 * their cause, the end). Nothing in it acts on calls. It sits behind the operations server's own
 * Basic auth.
 *
 * Every call is recorded as the server tells it (keys, talk, hang-up, far ends answering or
 * refusing, see {@link CallRecorder.heard}), so that it can be turned into a scenario:
 * `GET /console/api/calls/<id>/scenario` answers the scenario file's text and how it replays,
 * and `.../scenario.yaml` the file itself, as a download. Nothing is written on the server: a
 * process in production runs from a deployment (often read-only, or rebuilt at the next release),
 * and the test belongs in the repository the user works in, beside the flow.
 *
 * @example
 * const view = createLiveView([{ flow, file: 'flows/desk.yaml' }]);
 * const app = createApplication({ ..., call: view.machineOf(flow, inputs) });
 * view.follow(app.calls$);
 * ops.addHandler(view.handler); // http://127.0.0.1:9464/console/
 */
export function createLiveView(flows: readonly LiveFlow[]): LiveView {
  const feed = new ConsoleFeed();
  const recorder = new CallRecorder();
  // Read when first asked for: a process without the built page still runs (and says why it has no page).
  const page = () =>
    consolePage()
      .replace('<body>', '<body data-mode="live">')
      .replace('<title>ringflow dev</title>', '<title>ringflow live</title>');
  const described = describeFlows(flows.map(({ flow, file }) => ({ name: flow.document.name, file, flow })));
  const byName = new Map(flows.map((f) => [f.flow.document.name, f]));
  let watched: ReturnType<typeof watchCalls> = new Map();
  // The far ends the calls dialled, as the page lists them (ringing, answered, gone): read-only.
  const ringing = new Set<string>();
  const showFarEnd = (event: { readonly type: string } & Readonly<Record<string, unknown>>) => {
    const channel = event.channel as { id?: string; name?: string; state?: string } | undefined;
    const id = channel?.id;
    const call = id === undefined ? undefined : recorder.callOfFarEnd(id);
    if (id === undefined || call === undefined) return;
    const name = channel?.name ?? id;
    if (event.type === 'ChannelDestroyed') {
      ringing.delete(id);
      feed.send({ type: 'farEnd', id, call, ringing: false, gone: true });
    } else if (channel?.state === 'Up' && event.type === 'ChannelStateChange')
      feed.send({ type: 'farEnd', id, call, ringing: false, answered: true, name });
    else if (!ringing.has(id) && channel?.state !== 'Up') {
      ringing.add(id);
      feed.send({ type: 'farEnd', id, call, ringing: true, name });
    }
  };

  const scenarioOf = async (id: string): Promise<LiveScenario | undefined> => {
    const record = recorder.record(id, watched.get(id));
    if (!record) return undefined;
    const fileName = basename(scenarioFileFor(record, () => false));
    const { yaml, name } = callToScenario(record, resolve(record.flowFile, '..'), 'ringflow run --http');
    // Replayed from a scratch folder (nothing is left beside the flow), naming the flow by its path.
    const { runScenarioFile } = await import('./flowScenarios.ts');
    const scratch = await mkdtemp(join(tmpdir(), 'ringflow-live-'));
    try {
      const replayFile = join(scratch, fileName);
      await writeFile(replayFile, callToScenario(record, scratch, 'ringflow run --http').yaml);
      const [replay] = await runScenarioFile(replayFile);
      return { fileName, scenario: name, yaml, replay };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0] ?? '';
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (path === LIVE_VIEW_PATH.slice(0, -1)) {
      // The page's requests are relative: it must be served from the folder.
      res.writeHead(308, { location: LIVE_VIEW_PATH });
      res.end();
      return true;
    }
    if (path === LIVE_VIEW_PATH) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page());
      return true;
    }
    if (path === `${LIVE_VIEW_PATH}api/flows`) return json(res, 200, described);
    if (path === `${LIVE_VIEW_PATH}api/feed`) {
      feed.serve(req, res, [{ type: 'flows', flows: described }]);
      return true;
    }
    const asked = /^\/console\/api\/calls\/([^/]+)\/scenario(\.yaml)?$/.exec(path);
    if (asked) {
      const id = decodeURIComponent(asked[1] ?? '');
      const scenario = await scenarioOf(id).catch((error: unknown) => error as Error);
      if (scenario instanceof Error) return json(res, 500, { error: scenario.message });
      if (!scenario) return json(res, 404, { error: `no call "${id}" was seen by this live view` });
      if (!asked[2]) return json(res, 200, scenario);
      res.writeHead(200, {
        'content-type': 'application/yaml; charset=utf-8',
        'content-disposition': `attachment; filename="${scenario.fileName}"`,
        'cache-control': 'no-store',
      });
      res.end(scenario.yaml);
      return true;
    }
    return false;
  };
  return {
    handler,
    machineOf: (flow, inputs, agents) => {
      const file = byName.get(flow.document.name)?.file ?? `${flow.document.name}.yaml`;
      const told = (call: string, turn: AgentTurn) => {
        feed.turn(call, turn);
        recorder.agentTurn(call, turn);
      };
      return consoleMachine(
        flow,
        inputs,
        feed,
        recorder,
        (call) =>
          recorder.placed(call.channelId, {
            flow: flow.document.name,
            flowFile: file,
            caller: call.caller?.number ?? '',
            ...(call.extension !== undefined ? { extension: call.extension } : {}),
            ...(call.language !== undefined ? { language: call.language } : {}),
            args: call.args,
            inputs,
          }),
        agents ? (call) => observeAgentServices(agents, call, told) : undefined,
      );
    },
    follow(calls$) {
      watched = watchCalls(
        calls$,
        feed,
        (session) => byName.get(session.application ?? '')?.flow ?? flows[0]?.flow,
        {
          events: true,
          // What the caller and the far ends do is known here only from the server's events.
          onEvent: (session, event) => {
            recorder.heard(session.channelId, event);
            showFarEnd(event);
          },
          onForgotten: (id) => recorder.forget(id),
          endOf: (call) => recorder.record(call.id, call)?.end,
        },
      );
    },
    scenarioOf,
    close: () => feed.close(),
  };
}

function json(res: ServerResponse, status: number, value: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
  return true;
}
