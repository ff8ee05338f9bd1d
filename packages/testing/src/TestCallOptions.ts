import type { Flow } from '@ringflow/dsl';
import type { FarEndBehaviour as SimulatorFarEnd } from '@ringflow/simulator';
import type { ScenarioBot } from './agents/ScenarioAgents.ts';
import type { WebhookAnswers } from './http/FakeWebhooks.ts';

/**
 * How the far end of a dialled endpoint behaves: answers (after 2 s by default, or after
 * `answerAfterMs`), is busy (hangup cause 17), rejects the call (cause 21), never answers (the
 * dial step's timeout decides), or cannot be reached (cause 27, destination out of order). The
 * simulator's own far-end behaviour, configured per endpoint.
 */
export type FarEnd = SimulatorFarEnd;

/**
 * One behaviour for every call to an endpoint, or one per successive call (the last repeats):
 * `['busy', 'answer']` is busy at the first attempt and answers every later one.
 */
export type FarEndBehaviour = FarEnd | readonly FarEnd[];

/** A duration for the test API: milliseconds, or text with a unit (`500ms`, `2s`, `1m`). */
export type TestDuration = number | string;

/** One caller of a scenario: who calls, what they dial, and when. Every field has a default. */
export interface ScenarioCallOptions {
  /** Caller number (`call.caller.number`); default `5551234`. */
  readonly caller?: string;
  /** Caller name (`call.caller.name`); default empty. */
  readonly callerName?: string;
  /** The number dialled (`call.extension`); default `100`. */
  readonly extension?: string;
  /** Channel language (`call.language`, picks the prompt catalogue); default: the server's (`en`). */
  readonly language?: string;
  /**
   * Channel variables set before the call enters the flow (by the dialplan, with Set). The flow
   * reads them with `getChannelVar`, and as `call.variables.<name>` (as if ari.conf `channelvars`
   * listed them).
   */
  readonly variables?: Readonly<Record<string, string>>;
  /** Arguments of `Stasis(app, args...)` (`call.args`). */
  readonly args?: readonly string[];
  /** Flow inputs of this call (`input.<name>`), over the scenario's; declared defaults fill the rest. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** The call's channel id; default `c1`, `c2`... in the order the calls are given. */
  readonly channelId?: string;
  /** When the call arrives, from the start of the scenario (ms or text: `10s`); default at once. */
  readonly at?: TestDuration;
  /** The flow the call enters, by its name in `flows`; default the scenario's main flow. */
  readonly flow?: string;
  /**
   * Makes this party a far end instead of a caller: the phone at this endpoint (`PJSIP/agent`).
   * It places no call; when a flow dials the endpoint, the dialled channel is this party's (it
   * answers as `farEnds` says, by default after 2 s), and the test drives it like a caller:
   * `press`, `talk`, `hangUp`. "A calls B through the flow", end to end in one scenario.
   */
  readonly answers?: string;
}

/**
 * How the application and the simulated server talk, all in process and on the virtual clock:
 * - `http` (default): the application opens the event stream and sends each REST request on its
 *   own, as it does with a server's HTTP interface and event WebSocket;
 * - `socket`: the server dials the application once (a persistent outbound WebSocket) and every
 *   event and REST request travels on that connection (`RESTRequest`/`RESTResponse` frames);
 * - `per-call`: the server dials one connection per call (`<app>:<channel name>`); each call's
 *   events and requests travel on its own connection.
 * A flow's scenarios should pass the same way on all three.
 */
export type ScenarioTransport = 'http' | 'socket' | 'per-call';

/** The transports a scenario can run on, in the order `ringflow test --transport` lists them. */
export const SCENARIO_TRANSPORTS: readonly ScenarioTransport[] = ['http', 'socket', 'per-call'];

/** The world of a scenario: the server, its dialplan and far ends, the time. Every field has a default. */
export interface ScenarioWorldOptions {
  /** How the application and the server talk (see {@link ScenarioTransport}); default `http`. */
  readonly transport?: ScenarioTransport;
  /** Flow inputs of every call (`input.<name>`); a call's own `inputs` win. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /**
   * When the scenario starts, on the virtual clock (ms since the epoch, a Date or ISO text);
   * default Monday 2026-01-05 10:00 UTC (a working morning in Europe).
   */
  readonly startAt?: number | string | Date;
  /** The ARI application name the main flow runs as; default `flow-test`. */
  readonly app?: string;
  /** Extra `extensions.conf` text: contexts the flow sends calls to with `continue`. */
  readonly dialplan?: string;
  /**
   * The endpoints a flow can dial, by `tech/resource` (`PJSIP/operator`), and how each behaves.
   * A list gives one behaviour per successive call to that endpoint, the last one repeating.
   * Dialling an endpoint not listed here (nor a party's `answers`) fails as on a real server
   * without it: `500 Allocation failed`.
   */
  readonly farEnds?: Readonly<Record<string, FarEndBehaviour>>;
  /** HTTP for the flows' `http` steps and webhook tools (tests pass a fake); default the global fetch. */
  readonly fetch?: typeof fetch;
  /**
   * The flows' webhooks answered by the scenario, on its clock, instead of `fetch`: answers by
   * `"METHOD URL"` (`{ 'GET https://crm.example/orders*': { status: 200, json: [], after: '300ms' } }`,
   * `'unreachable'`, a list for successive requests). Every request is recorded
   * (`scenario.webhooks`); one nothing answers fails as a network error and is kept for
   * `scenario.webhooks.checkAnswered`. Not with `fetch`.
   */
  readonly http?: WebhookAnswers;
  /** Other flows calls can enter (`flow: <name>` on a call); each runs as the application `<name>`. */
  readonly flows?: Readonly<Record<string, Flow>>;
  /**
   * The flow's own prompts the server has, beside its core sounds (`sound:acme/welcome`): what
   * plays is what exists, and a sound it lacks fails the play step as on a real server.
   */
  readonly sounds?: readonly TestSound[];
  /**
   * The bot of the flows' agent steps: a script (`{ greet, turns }`), a `TextBot`, `{ audioBot }`
   * (an audio bot, for `protocol: audio` steps), `{ url }`, or `unreachable`.
   */
  readonly bot?: ScenarioBot;
  /**
   * Time passes as on the wall: each `wait`, `talk`, `say` and `press` takes that long, virtual
   * time following in 20 ms steps, so that a bot served on a real WebSocket (`bot: { url }`),
   * which answers on its own clock, is given the time it takes. Scenario files set it with
   * `bot: { url }`. Default false: virtual time runs as fast as it can.
   */
  readonly realTime?: boolean;
}

/** A sound of the simulated server: its name as played, how long it lasts, in which languages. */
export interface TestSound {
  /** As played after `sound:` (`acme/welcome`). */
  readonly name: string;
  /** How long it plays (ms, or text: `2.5s`). */
  readonly duration: TestDuration;
  /** Languages it exists in (`en`, `fr`); default every language of the core sounds. */
  readonly languages?: readonly string[];
}

/** A scenario with several calls: its world and its callers, by name, in the order they are given. */
export interface ScenarioOptions extends ScenarioWorldOptions {
  readonly calls: Readonly<Record<string, ScenarioCallOptions>>;
}

/** The call a single-call flow test places, and the world around it. Every field has a default. */
export interface TestCallOptions
  extends Omit<ScenarioCallOptions, 'at' | 'flow'>,
    Omit<ScenarioWorldOptions, 'flows'> {}
