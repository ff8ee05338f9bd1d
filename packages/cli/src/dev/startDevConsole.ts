import { watch } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { systemClock } from '@ringflow/client';
import { describeFileError, type Flow, FlowValidationError, loadFlowFile } from '@ringflow/dsl';
import { createApplication } from '@ringflow/runtime';
import { createSimulator, formatIssue, loadDialplanFile, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { CallRecorder } from './CallRecorder.ts';
import { ConsoleFeed } from './ConsoleFeed.ts';
import type { FeedMessage } from './feedMessages.ts';
import { consoleMachine } from './consoleMachine.ts';
import { describeFlows } from './describeFlows.ts';
import { feedSimulatorEvents, traceRequests } from './devSimulatorFeed.ts';
import { consolePage } from './consolePage.ts';
import { isConsoleRequest, readRequest } from './consoleRequests.ts';
import { DIALPLAN_CONTEXT, devConsoleHandlers, type LoadedFlow } from './devConsoleHandlers.ts';
import { scenarioFilesOf } from './flowScenarios.ts';
import { watchCalls } from './watchCalls.ts';

export type { TimelineEntry } from './ConsoleFeed.ts';

export interface DevConsoleOptions {
  readonly files: readonly string[];
  /**
   * An `extensions.conf` for the simulator: the page can then place calls at an extension of its
   * `from-callers` context, and the dialplan sends them on (`Stasis(<flow name>)` enters a flow).
   */
  readonly dialplanFile?: string;
  readonly host?: string;
  readonly port?: number;
}

export interface DevConsole {
  readonly url: string;
  /** The dialplan's warnings (`file:line:col: warning: ...`). */
  readonly warnings: readonly string[];
  stop(): Promise<void>;
}

/** What the console reads of a call's channel as it entered its flow. */
interface StartChannel {
  readonly id: string;
  readonly caller?: { readonly number?: string };
  readonly dialplan?: { readonly exten?: string };
  readonly language?: string;
}

/**
 * `ringflow dev`: the simulator (in process, served on a loopback port as a real server would be),
 * the flows running on it through the runtime, and the console page with its live feed (SSE).
 * Every call is recorded (what the caller and the far ends did, what the flow did), so that it
 * can be saved as a scenario file; the scenario files beside the flows can be run from the page.
 */
export async function startDevConsole(options: DevConsoleOptions): Promise<DevConsole> {
  if (options.files.length === 0)
    throw new Error('give at least one flow file, e.g. ringflow dev flows/ivr.yaml');
  const feed = new ConsoleFeed();
  const send = (message: FeedMessage) => feed.send(message);
  const recorder = new CallRecorder();
  const flows = new Map<string, LoadedFlow>();
  // The flow (the version) each call entered, by channel id, until its session is watched.
  const flowOfCall = new Map<
    string,
    {
      readonly file: string;
      readonly version: Flow;
      readonly start: { readonly channel: StartChannel; readonly args?: readonly string[] };
    }
  >();
  // Each call's flow tells the feed its user events and failures, and the recorder its requests.
  const machineOf = (flow: Flow) => consoleMachine(flow, {}, feed, recorder);
  for (const file of options.files) {
    const flow = await loadFlowFile(file).catch((error: unknown) => {
      throw error instanceof FlowValidationError ? error : new Error(`${file}: ${describeFileError(error)}`);
    });
    const name = flow.document.name;
    if (flows.has(name)) throw new Error(`${file}: two flows are named "${name}"`);
    flows.set(name, { file: resolve(file), flow, machine: machineOf(flow) });
  }
  let callCount = 0;
  // Calls the page placed at an extension, until they end (to tell those no flow took).
  const inDialplan = new Set<string>();
  // Every phone the flows dial rings until the page answers or rejects it: the endpoints written
  // in the flows and those computed as the call runs (`endpoint: { expr: ... }`) alike.
  const dialplan = options.dialplanFile === undefined ? undefined : loadDialplanFile(options.dialplanFile);
  const sim = createSimulator({
    users: [{ name: 'dev', password: 'dev' }],
    ...(dialplan ? { dialplan } : {}),
    unknownEndpoints: 'ring',
    answerOutboundAfterMs: null,
  });
  // The requests the application makes and the events of the channels go to the feed.
  const wire = await startWireServer(traceRequests(sim, feed, recorder), {
    users: [{ username: 'dev', password: 'dev' }],
    host: '127.0.0.1',
    port: 0,
  });
  feedSimulatorEvents(sim.driver, feed, recorder, { inDialplan, followed: (id) => watched.has(id) });
  const app = createApplication({
    servers: [{ url: wire.url, username: 'dev', password: 'dev' }],
    apps: [...flows.keys()],
    call: (info) => {
      const loaded = flows.get(info.app);
      if (!loaded) throw new Error(`no flow for application ${info.app}`);
      flowOfCall.set(info.start.channel.id, { file: loaded.file, version: loaded.flow, start: info.start });
      return loaded.machine;
    },
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  await app.start();
  const watched = watchCalls(app.calls$, feed, (session) => flowOfCall.get(session.channelId)?.version, {
    onForgotten: (id) => recorder.forget(id),
    endOf: (call) => recorder.record(call.id, call)?.end,
    onCall: (call) => {
      const loaded = flowOfCall.get(call.id);
      flowOfCall.delete(call.id);
      // A call the page did not place (`ringflow call` on the simulator's port): recorded from now.
      if (loaded && !recorder.has(call.id)) {
        const channel = loaded.start.channel;
        recorder.placed(call.id, {
          flow: call.flow,
          flowFile: loaded.file,
          caller: channel?.caller?.number ?? '',
          ...(channel?.dialplan?.exten ? { extension: channel.dialplan.exten } : {}),
          ...(channel?.language ? { language: channel.language } : {}),
          ...(loaded.start.args ? { args: loaded.start.args } : {}),
        });
      }
    },
  });
  const describe = () =>
    describeFlows(
      [...flows.entries()].map(([name, f]) => ({
        name,
        file: f.file,
        flow: f.flow,
        ...(f.error ? { error: f.error } : {}),
      })),
    );
  const watchers = [...flows.values()].map((loaded) =>
    watch(loaded.file, () => {
      void loadFlowFile(loaded.file).then(
        (flow) => {
          loaded.flow = flow;
          loaded.machine = machineOf(flow);
          delete loaded.error;
          send({ type: 'flows', flows: describe() });
        },
        (error: unknown) => {
          loaded.error =
            error instanceof FlowValidationError
              ? error.message
              : `${loaded.file}: ${describeFileError(error)}`;
          send({ type: 'flows', flows: describe() });
        },
      );
    }),
  );
  const posts = devConsoleHandlers({
    driver: sim.driver,
    flows,
    recorder,
    watched: () => watched,
    hasDialplan: dialplan !== undefined,
    inDialplan,
    nextCallId: () => `call-${++callCount}`,
  });
  const gets: Readonly<Record<string, (req: IncomingMessage, res: ServerResponse) => unknown>> = {
    '/': (_, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(consolePage());
    },
    '/api/flows': (_, res) => json(res, describe()),
    '/api/softphone': (_, res) =>
      json(res, {
        dialplan: options.dialplanFile === undefined ? null : resolve(options.dialplanFile),
        context: DIALPLAN_CONTEXT,
      }),
    '/api/feed': (req, res) => feed.serve(req, res),
    '/api/scenarios': async (_, res) =>
      json(res, await scenarioFilesOf([...flows.entries()].map(([name, f]) => ({ name, file: f.file })))),
  };
  /** The router: a GET handler by path, or a POST handler by path with its body read into its type. */
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const get = req.method === 'GET' ? gets[path] : undefined;
    if (get) return void (await get(req, res));
    const post = path.slice('/api/'.length);
    if (req.method === 'POST' && path.startsWith('/api/') && isConsoleRequest(post)) {
      const body = readRequest(post, JSON.parse((await readBody(req)) || '{}'));
      const handler = posts[post] as (body: unknown) => unknown;
      return json(res, await handler(body));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };
  const server: Server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: (error as Error).message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8089, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}/`,
    warnings: (dialplan?.warnings ?? []).map((w) => formatIssue(w)),
    async stop() {
      for (const w of watchers) w.close();
      feed.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      await wire.close();
    },
  };
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 100_000) throw new Error('body too large');
  }
  return text;
}
