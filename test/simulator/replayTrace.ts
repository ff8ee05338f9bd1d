import { readFileSync } from 'node:fs';
import { VirtualClock } from '@ringflow/client';
import { createSimulator, type Simulator, type SimRequest } from '@ringflow/simulator';

/** One line of `fixtures/real-trace.jsonl`: a scenario marker, a REST exchange or a received event. */
export type TraceLine =
  | { seq: number; scenario: string; marker: true }
  | {
      seq: number;
      ts: string;
      scenario: string;
      step?: string;
      method: string;
      path: string;
      query?: string;
      auth?: string;
      contentType?: string;
      body?: unknown;
      status: number;
      response?: unknown;
      responseKind?: string;
    }
  | { seq: number; conn: string; scenario: string; event: Record<string, unknown> };

export type RestLine = Extract<TraceLine, { method: string }>;
export type EventLine = Extract<TraceLine, { event: Record<string, unknown> }>;

/** The recorded trace of a real server, trimmed (see fixtures/README.md). */
export function loadTrace(): TraceLine[] {
  const text = readFileSync(new URL('./fixtures/real-trace.jsonl', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TraceLine);
}

/** What the simulator answered to one recorded request. */
export interface RestOutcome {
  readonly line: RestLine;
  readonly status: number;
  readonly body: unknown;
}

/** An event the simulator delivered, tagged with the connection and the scenario running then. */
export interface ActualEvent {
  readonly conn: string;
  readonly scenario: string;
  readonly event: Record<string, unknown>;
}

export interface ReplayResult {
  readonly sim: Simulator;
  readonly rest: RestOutcome[];
  readonly events: ActualEvent[];
}

/** Requests that test the transport (credentials, CORS, HTML pages, api-docs), not the server's rules. */
export function isTransportRequest(line: RestLine): boolean {
  return (
    line.auth !== 'basic demo:demo' ||
    line.method === 'OPTIONS' ||
    !line.path.startsWith('/ari/') ||
    line.path.startsWith('/ari/api-docs') ||
    (line.query ?? '').includes('api_key=')
  );
}

function toRequest(line: RestLine): SimRequest {
  const query: Record<string, string> = {};
  // Repeated keys keep the last value, as the real server (and the wire transport) do.
  for (const [k, v] of new URLSearchParams(line.query ?? '')) query[k] = v;
  const request: {
    method: string;
    path: string;
    query: Record<string, string>;
    body?: unknown;
    bodyParseError?: boolean;
  } = { method: line.method, path: line.path.slice('/ari'.length), query };
  if (typeof line.body === 'string') {
    if (line.contentType === 'application/json') {
      try {
        request.body = JSON.parse(line.body);
      } catch {
        request.bodyParseError = true;
      }
    }
  } else if (line.body !== undefined && line.body !== null) request.body = line.body;
  return request;
}

const SERVER_ID = /\b\d{9,}\.\d+\b/g;

/**
 * Server-assigned channel ids differ between the real server and the simulator; they are paired
 * by order of first appearance, so recorded requests can name the simulator's channels and
 * events can be compared.
 */
class IdPairing {
  private readonly expected: string[] = [];
  private readonly actual: string[] = [];
  private readonly seenExpected = new Set<string>();
  private readonly seenActual = new Set<string>();

  noteExpected(value: unknown): void {
    for (const id of JSON.stringify(value ?? null).match(SERVER_ID) ?? []) {
      if (this.seenExpected.has(id)) continue;
      this.seenExpected.add(id);
      this.expected.push(id);
    }
  }

  noteActual(value: unknown): void {
    for (const id of JSON.stringify(value ?? null).match(SERVER_ID) ?? []) {
      if (this.seenActual.has(id)) continue;
      this.seenActual.add(id);
      this.actual.push(id);
    }
  }

  /** Rewrites recorded ids into the simulator's. */
  toActual(text: string): string {
    return text.replace(SERVER_ID, (id) => this.actual[this.expected.indexOf(id)] ?? id);
  }

  /** Rewrites the simulator's ids into the recorded ones. */
  toExpected(text: string): string {
    return text.replace(SERVER_ID, (id) => this.expected[this.actual.indexOf(id)] ?? id);
  }
}

/**
 * Replays the recorded scenarios against an in-process simulator: the same connections, the
 * same requests in the same order, virtual time advanced as much as real time passed between
 * requests. Returns every reply and every delivered event for comparison with the trace.
 */
export async function replayTrace(trace: readonly TraceLine[]): Promise<ReplayResult & { ids: IdPairing }> {
  const first = trace.find((l): l is RestLine => 'ts' in l);
  const start = Date.parse(first?.ts ?? '2026-11-22T03:47:11.700Z');
  const clock = new VirtualClock(start);
  const sim = createSimulator({
    clock,
    asteriskId: '02:fc:00:00:00:01',
    answerOutboundAfterMs: null,
    users: [
      { name: 'demo', password: 'demo' },
      { name: 'viewer', password: 'viewer', readOnly: true },
    ],
  });
  const ids = new IdPairing();
  const events: ActualEvent[] = [];
  const rest: RestOutcome[] = [];
  let scenario = '00-connect';
  let nextScenario = scenario;
  const connect = (conn: string, apps: string[], subscribeAll: boolean) => {
    const result = sim.connectEvents({ apps, subscribeAll }, (event) => {
      ids.noteActual(event);
      events.push({ conn, scenario, event });
    });
    if ('status' in result) throw new Error(`connect ${conn} refused: ${JSON.stringify(result.body)}`);
  };
  connect('demo-app', ['demo-app'], true);
  connect('plain-app', ['plain-app'], false);
  let multiConnected = false;
  for (const line of trace) {
    if ('marker' in line) {
      nextScenario = line.scenario;
      continue;
    }
    if ('event' in line) {
      ids.noteExpected(line.event);
      continue;
    }
    ids.noteExpected(line.response);
    if (isTransportRequest(line) || line.path === '/ari/events') continue;
    // Time passes first, so what happens meanwhile belongs to the previous scenario, as recorded.
    await clock.advanceTo(Math.max(clock.now(), Date.parse(line.ts)));
    if (nextScenario !== scenario) {
      scenario = nextScenario;
      if (scenario === '24-app-replaced') connect('demo-app-2', ['demo-app'], false);
    }
    if (!multiConnected && line.step?.includes('after multi-app connection')) {
      connect('multi-app', ['multi-one', 'multi-two'], false);
      multiConnected = true;
    }
    const request = toRequest(line);
    const response = await sim.handle({ ...request, path: ids.toActual(request.path) });
    ids.noteActual(response.body);
    rest.push({ line, status: response.status, body: response.body });
    await clock.advance(0);
  }
  await clock.advance(5000);
  return { sim, rest, events, ids };
}

/** A short description of an event for sequence comparison: type and the resource it is about. */
export function eventKey(event: Record<string, unknown>): string {
  const id = (field: string, key = 'id') => (event[field] as Record<string, unknown> | undefined)?.[key];
  const parts = [String(event.type)];
  const subject =
    id('channel') ??
    id('playback') ??
    id('recording', 'name') ??
    id('bridge') ??
    id('device_state', 'name') ??
    id('peer');
  if (subject !== undefined) parts.push(String(subject));
  if (event.type === 'ChannelVarset') parts.push(`${String(event.variable)}=${String(event.value)}`);
  if (event.type === 'Dial') parts.push(String(event.dialstatus));
  if (event.type === 'ChannelDialplan') parts.push(String(event.dialplan_app));
  const state = id('playback', 'state') ?? id('recording', 'state');
  if (state !== undefined) parts.push(String(state));
  return parts.join(' ');
}

/** The resource an event is about, to compare sequences per resource (races across resources are real). */
export function eventSubject(event: Record<string, unknown>): string {
  const id = (field: string, key = 'id') => (event[field] as Record<string, unknown> | undefined)?.[key];
  return String(
    id('channel') ??
      id('peer') ??
      id('playback') ??
      id('recording', 'name') ??
      id('bridge') ??
      id('device_state', 'name') ??
      '-',
  );
}
