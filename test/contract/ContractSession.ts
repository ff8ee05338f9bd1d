import {
  createRestClient,
  HttpError,
  type RestClient,
  type RestTransport,
  type StreamEvent,
  type VirtualClock,
} from '@ringflow/client';
import type { SimulatorDriver } from '@ringflow/simulator';
import type { DeliveryCount } from './CountingServer.ts';
import { describeEvent } from './describeEvent.ts';
import { EventLog, type EventSource } from './EventLog.ts';

/** A reply as the server sent it: status, parsed body, and the `message` of an error body. */
export interface RawReply {
  readonly status: number;
  readonly body: unknown;
  readonly message?: string;
}

/** Query values; an array sends the key once per value (`media=a&media=b`). */
export type RawQuery = Readonly<Record<string, string | readonly string[]>>;

/**
 * What a scenario gets from a target: the typed REST client, raw requests (for the error cases
 * the typed client refuses before sending), event streams, and a way to let the server run until
 * something happened. Every scenario function takes one and asserts the same things on all targets.
 */
export interface ContractSession {
  /** Name of the target (`in-process`, `wire`, `real-server`). */
  readonly target: string;
  readonly rest: RestClient;
  /** The simulator's caller side, on targets that have one in this process. Scenarios do not need it. */
  readonly driver?: SimulatorDriver;
  /** Ids of this run: the name itself on a fresh simulator, prefixed on a shared real server. */
  id(name: string): string;
  /** Sends a request as it is, without the client's parameter checks. `path` is below `/ari`, encoded. */
  send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    query?: RawQuery,
    body?: unknown,
  ): Promise<RawReply>;
  /** Opens an event stream for the applications and resolves once it is open. */
  listen(apps: string | readonly string[], options?: { subscribeAll?: boolean }): Promise<EventLog>;
  /**
   * Lets the server run until `check` returns something other than undefined or false, and
   * returns it. On simulators this moves virtual time to the next timer only when every event
   * sent has arrived and the check still fails; on a real server it waits for events.
   */
  until<T>(what: string, check: () => T | undefined | false): Promise<T>;
  /** Waits for the first event of `log` (from index `from`) that `match` accepts. */
  nextEvent(
    log: EventLog,
    what: string,
    match: (event: StreamEvent) => boolean,
    from?: number,
  ): Promise<StreamEvent>;
  /** What happened, normalised (server-assigned ids numbered), for comparing transports. */
  transcript(): string[];
  close(): Promise<void>;
}

/** How time passes on a target. */
export type Pace =
  /** The test owns a virtual clock shared by the simulator: advance it when nothing is in flight. */
  | {
      readonly kind: 'virtual';
      readonly clock: VirtualClock;
      readonly maxVirtualMs: number;
      readonly arrivalTimeoutMs: number;
    }
  /** A server with its own clock: wait for events up to a deadline. */
  | { readonly kind: 'real'; readonly timeoutMs: number };

/** What a target provides to build a session. */
export interface SessionParts {
  readonly target: string;
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly transport: RestTransport;
  readonly pace: Pace;
  readonly idPrefix: string;
  readonly driver?: SimulatorDriver;
  /** Creates the event stream of the applications (or the server dials them: see dialledTargets.ts). */
  openStream(apps: readonly string[], subscribeAll: boolean): EventSource;
  /** The server-side event count of a stream that just opened (simulated targets). */
  claimCount?(apps: readonly string[], stream: EventSource): DeliveryCount;
  /**
   * The application name as transcripts show it. Per-call connections name the application
   * `<app>:<channel name>`; the transcript shows `<app>`, so targets can be compared.
   */
  appName?(application: string): string;
  /** Stops what the target started for this session (servers). */
  shutdown(): Promise<void>;
}

const SERVER_ASSIGNED = /\b\d{6,}\.\d+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, error } = body as { message?: unknown; error?: unknown };
  if (typeof message === 'string') return message;
  return typeof error === 'string' ? error : undefined;
}

function deadline(ms: number, what: string): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`${what}: did not happen in time (no event arrived in the last ${Math.round(ms)} ms)`),
        ),
      ms,
    );
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Builds a session from a target's parts: one REST client, event logs, the waiting strategy and
 * the transcript.
 */
export function createSession(parts: SessionParts): ContractSession {
  const lines: string[] = [];
  const logs: EventLog[] = [];
  const rest = createRestClient({
    url: parts.url,
    username: parts.username,
    password: parts.password,
    transport: parts.transport,
    segment: 'asterisk',
    onRequest: (r) => {
      const detail = r.error instanceof HttpError ? ` ${r.error.serverMessage}` : '';
      lines.push(`${r.method} ${r.path} -> ${r.status ?? r.error?.code}${detail}`);
    },
  });

  const inFlight = () => logs.reduce((n, log) => n + log.inFlight, 0);

  async function waitForArrival(what: string, timeoutMs: number): Promise<void> {
    const limit = deadline(timeoutMs, what);
    try {
      await Promise.race([Promise.race(logs.map((log) => log.arrival())), limit.promise]);
    } finally {
      limit.cancel();
    }
  }

  async function until<T>(what: string, check: () => T | undefined | false): Promise<T> {
    const pace = parts.pace;
    const started = pace.kind === 'virtual' ? pace.clock.now() : 0;
    // On a real server the whole wait has one deadline, however many unrelated events arrive.
    const realDeadline = performance.now() + (pace.kind === 'real' ? pace.timeoutMs : 0);
    for (;;) {
      const value = check();
      if (value !== undefined && value !== false) return value;
      for (const log of logs) {
        if (log.problems.length) throw new Error(`${log.name}: ${log.problems.join('; ')}`);
        // More events arrived than were sent: the count is not this stream's, so waiting cannot be trusted.
        if (log.inFlight < 0) throw new Error(`${log.name}: received more events than the server sent`);
      }
      if (pace.kind === 'real') {
        await waitForArrival(what, Math.max(0, realDeadline - performance.now()));
        continue;
      }
      if (inFlight() > 0) {
        await waitForArrival(what, pace.arrivalTimeoutMs);
        continue;
      }
      // Everything sent has arrived: let promise work and I/O settle before moving time.
      await pace.clock.advance(0);
      if (inFlight() > 0) continue;
      const settled = check();
      if (settled !== undefined && settled !== false) return settled;
      const due = pace.clock.nextDue();
      if (due === undefined || due - started > pace.maxVirtualMs) {
        const seen = logs.map((l) => `${l.name}: ${l.events.slice(-8).map(describeEvent).join(' | ')}`);
        throw new Error(
          `${what}: did not happen within ${pace.maxVirtualMs} ms of virtual time` +
            `${due === undefined ? ' (no timer left)' : ''}; last events:\n${seen.join('\n')}`,
        );
      }
      await pace.clock.advanceTo(due);
    }
  }

  return {
    target: parts.target,
    rest,
    ...(parts.driver ? { driver: parts.driver } : {}),
    id: (name) => `${parts.idPrefix}${name}`,

    async send(method, path, query = {}, body) {
      const pairs: [string, string][] = [];
      for (const [key, value] of Object.entries(query)) {
        for (const v of typeof value === 'string' ? [value] : value) pairs.push([key, v]);
      }
      const reply = await parts.transport.send({
        method,
        path,
        query: pairs,
        ...(body === undefined ? {} : { body }),
      });
      const message = serverMessage(reply.body);
      const q = pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '';
      lines.push(`${method} ${path}${q} -> ${reply.status}${message === undefined ? '' : ` ${message}`}`);
      return { status: reply.status, body: reply.body, ...(message === undefined ? {} : { message }) };
    },

    async listen(apps, options = {}) {
      const list = typeof apps === 'string' ? [apps] : [...apps];
      const subscribeAll = options.subscribeAll ?? false;
      const stream = parts.openStream(list, subscribeAll);
      const name = `${list.join(',')}${subscribeAll ? '+all' : ''}`;
      // Subscribe before the stream opens: a transport may hand over events as it opens.
      const log = new EventLog(name, stream);
      await stream.whenOpen();
      const count = parts.claimCount?.(list, stream);
      if (count) log.countWith(count);
      logs.push(log);
      return log;
    },

    until,

    nextEvent(log, what, match, from = 0) {
      return until(what, () => log.events.slice(from).find(match));
    },

    transcript() {
      const numbering = new Map<string, string>();
      const normalise = (line: string) =>
        line.replace(SERVER_ASSIGNED, (id) => {
          if (!numbering.has(id)) numbering.set(id, `#${numbering.size + 1}`);
          return numbering.get(id)!;
        });
      const app = (e: StreamEvent) => {
        const name = (e as { application?: unknown }).application;
        if (typeof name !== 'string') return '';
        return ` @${parts.appName ? parts.appName(name) : name}`;
      };
      const events = logs.flatMap((log) =>
        log.events.map((e) => `[${log.name}] ${describeEvent(e)}${app(e)}`),
      );
      return [...lines, ...events].map(normalise);
    },

    async close() {
      // Wait for what is still on its way, so the transcript is complete. The last request's
      // consequences may still be queued behind its reply (an in-process server destroys a Local
      // channel's other half a microtask after answering): let queued work run first.
      await new Promise((resolve) => setImmediate(resolve));
      if (parts.pace.kind === 'virtual' && inFlight() > 0)
        await until('events in flight', () => inFlight() === 0);
      for (const log of logs) await log.close();
      await rest.close();
      await parts.shutdown();
    },
  };
}
