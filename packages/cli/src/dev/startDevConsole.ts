import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@ringflow/client';
import {
  createFlowCallMachine,
  describeFileError,
  type Flow,
  FlowValidationError,
  flowGraph,
  loadFlowFile,
} from '@ringflow/dsl';
import { createApplication } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import type { AnyStateMachine, InspectionEvent } from 'xstate';
import { CONSOLE_PAGE } from './consolePage.ts';

export interface DevConsoleOptions {
  readonly files: readonly string[];
  readonly host?: string;
  readonly port?: number;
}

export interface DevConsole {
  readonly url: string;
  stop(): Promise<void>;
}

/** One line of a call's timeline, as the page shows it. */
export interface TimelineEntry {
  readonly at: number;
  readonly call: string;
  readonly kind: 'event' | 'request' | 'state' | 'end' | 'error';
  readonly text: string;
}

interface LoadedFlow {
  readonly file: string;
  flow: Flow;
  machine: AnyStateMachine;
  error?: string;
}

/**
 * `ringflow dev`: the simulator (in process, served on a loopback port as a real server would be),
 * the flows running on it through the runtime, and the console page with its live feed (SSE).
 */
export async function startDevConsole(options: DevConsoleOptions): Promise<DevConsole> {
  if (options.files.length === 0)
    throw new Error('give at least one flow file, e.g. ringflow dev flows/ivr.yaml');
  const flows = new Map<string, LoadedFlow>();
  for (const file of options.files) {
    const flow = await loadFlowFile(file).catch((error: unknown) => {
      throw error instanceof FlowValidationError ? error : new Error(`${file}: ${describeFileError(error)}`);
    });
    const name = flow.document.name;
    if (flows.has(name)) throw new Error(`${file}: two flows are named "${name}"`);
    flows.set(name, { file, flow, machine: createFlowCallMachine(flow, { inputs: {} }) });
  }
  const placed = new Set<string>();
  let callCount = 0;
  // The endpoints the flows name (`PJSIP/operator`, in steps or input defaults) exist and ring
  // until the page answers or rejects them.
  const endpoints = new Set<string>();
  for (const file of options.files)
    for (const match of (await readFile(file, 'utf8')).matchAll(
      /\b(?:PJSIP|SIP|IAX2|DAHDI|Local)\/[\w@.+-]+/g,
    ))
      endpoints.add(match[0]);
  const sim = createSimulator({
    users: [{ name: 'dev', password: 'dev' }],
    endpoints: [...endpoints],
    answerOutboundAfterMs: null,
  });
  const feed = new Set<ServerResponse>();
  const history: unknown[] = [];
  const send = (message: Record<string, unknown>) => {
    history.push(message);
    if (history.length > 5000) history.shift();
    const data = `data: ${JSON.stringify(message)}\n\n`;
    for (const res of feed) res.write(data);
  };
  const line = (call: string, kind: TimelineEntry['kind'], text: string) =>
    send({ type: 'timeline', entry: { at: Date.now(), call, kind, text } satisfies TimelineEntry });
  // REST requests the application makes, with their status: the simulated server's handler, wrapped.
  const handle = sim.handle.bind(sim);
  const traced = new Proxy(sim, {
    get(target, key) {
      if (key === 'handle')
        return async (request: Parameters<typeof sim.handle>[0]) => {
          const response = await handle(request);
          const match = /\/channels\/([^/?]+)/.exec(request.path);
          line(match?.[1] ?? '', 'request', `${request.method} ${request.path} → ${response.status}`);
          return response;
        };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const wire = await startWireServer(traced, {
    users: [{ username: 'dev', password: 'dev' }],
    host: '127.0.0.1',
    port: 0,
  });
  sim.driver.onEvent((event) => {
    const e = event as { type: string; channel?: { id: string }; digit?: string };
    line(e.channel?.id ?? '', 'event', `${e.type}${e.digit ? ` ${e.digit}` : ''}`);
    // Channels the page did not place are far ends (dial steps): the page answers or rejects them.
    const id = e.channel?.id;
    if (id && e.type === 'ChannelCreated' && !placed.has(id)) send({ type: 'farEnd', id, ringing: true });
    if (
      id &&
      !placed.has(id) &&
      (e.type === 'ChannelDestroyed' ||
        (e.type === 'ChannelStateChange' && (e.channel as { state?: string }).state === 'Up'))
    )
      send({ type: 'farEnd', id, ringing: false });
  });
  const appOf = new Map<string, string>();
  const app = createApplication({
    servers: [{ url: wire.url, username: 'dev', password: 'dev' }],
    apps: [...flows.keys()],
    call: (info) => {
      appOf.set(info.start.channel.id, info.app);
      const loaded = flows.get(info.app);
      if (!loaded) throw new Error(`no flow for application ${info.app}`);
      return loaded.machine;
    },
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  await app.start();
  app.calls$.subscribe((session) => {
    const id = session.channelId;
    queueMicrotask(() => {
      send({ type: 'call', id, flow: appOf.get(id) ?? '' });
      appOf.delete(id);
      const actor = session.machine;
      if (!actor) return;
      let current = '';
      const enter = (value: unknown) => {
        const state = typeof value === 'string' ? value : (Object.keys(value as object)[0] ?? '');
        if (state === current || state === '' || state.startsWith('$')) return;
        current = state;
        send({ type: 'state', call: id, state });
        line(id, 'state', `◆ ${state}`);
      };
      enter(actor.getSnapshot().value);
      const inspection = actor.system.inspect((event: InspectionEvent) => {
        if (event.type === '@xstate.microstep' && event.actorRef === actor)
          enter((event.snapshot as unknown as { value: unknown }).value);
      });
      void session.done.then((outcome) => {
        inspection.unsubscribe();
        line(id, 'end', `■ call ended: ${String(outcome)}`);
        send({ type: 'ended', call: id, outcome: String(outcome) });
      });
    });
  });
  const describe = () =>
    [...flows.entries()].map(([name, f]) => ({
      name,
      file: f.file,
      graph: flowGraph(f.flow),
      states: Object.fromEntries(
        Object.entries(f.flow.document.states).map(([state, doc]) => [
          state,
          (doc.steps ?? []).map((step, i) => ({
            at: f.flow.where?.(['states', state, 'steps', i]) ?? f.file,
            step,
          })),
        ]),
      ),
      error: f.error ?? null,
    }));
  const watchers = [...flows.values()].map((loaded) =>
    watch(loaded.file, () => {
      void loadFlowFile(loaded.file).then(
        (flow) => {
          loaded.flow = flow;
          loaded.machine = createFlowCallMachine(flow, { inputs: {} });
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
  const server: Server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: (error as Error).message }));
    });
  });
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(CONSOLE_PAGE);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/flows') return json(res, describe());
    if (req.method === 'GET' && url.pathname === '/api/feed') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const m of history) res.write(`data: ${JSON.stringify(m)}\n\n`);
      feed.add(res);
      req.on('close', () => feed.delete(res));
      return;
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, string>;
      const d = sim.driver;
      switch (url.pathname) {
        case '/api/call': {
          if (!flows.has(body.flow ?? '')) throw new Error(`no flow named "${body.flow}"`);
          const placing = `call-${++callCount}`;
          placed.add(placing);
          const id = d.placeCall({
            from: body.from || '1000',
            app: body.flow ?? '',
            channelId: placing,
            ...(body.language ? { language: body.language } : {}),
          });
          return json(res, { id });
        }
        case '/api/dtmf':
          d.pressDigits(need(body.call), need(body.digits));
          return json(res, {});
        case '/api/talk':
          if (body.talking === 'true') d.startTalking(need(body.call));
          else d.stopTalking(need(body.call));
          return json(res, {});
        case '/api/hangup':
          d.hangup(need(body.call));
          return json(res, {});
        case '/api/answer':
          d.answer(need(body.call));
          return json(res, {});
        case '/api/reject':
          d.reject(need(body.call));
          return json(res, {});
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8089, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}/`,
    async stop() {
      for (const w of watchers) w.close();
      for (const res of feed) res.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      await wire.close();
    },
  };
}

function need(value: string | undefined): string {
  if (!value) throw new Error('missing field');
  return value;
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
