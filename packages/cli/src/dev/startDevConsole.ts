import { resolve } from 'node:path';
import type { AudioBot, TextBot } from '@ringflow/runtime';
import { formatIssue } from '@ringflow/simulator';
import { CallLines } from './CallLines.ts';
import { CallRecorder } from './CallRecorder.ts';
import { ConsoleFeed } from './ConsoleFeed.ts';
import { consoleMachine } from './consoleMachine.ts';
import { consolePage } from './consolePage.ts';
import { DevAgents } from './devAgents.ts';
import { DIALPLAN_CONTEXT, devConsoleHandlers } from './devConsoleHandlers.ts';
import { DevFlows } from './devFlows.ts';
import { scenarioFilesOf } from './flowScenarios.ts';
import { json, serveDevConsole, urlOf } from './serveDevConsole.ts';
import { startDevApplication } from './startDevApplication.ts';
import { startDevSimulator } from './startDevSimulator.ts';
import { SoundFolder } from './SoundFolder.ts';
import { serveSound } from './serveSound.ts';
import { SteppedTime } from './SteppedTime.ts';

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
  /**
   * A server's sounds folder (`<dir>/<language>/<name>.<format>`): the prompts the flows play are
   * played in the page from it. Default: a server's folder found on this machine, if any (see
   * SERVER_SOUND_FOLDERS); `null`: none.
   */
  readonly sounds?: string | null;
  /**
   * Bots run in this process, by the address (or name) an agent step's `bot:` gives: a step whose
   * bot is one of them talks to it instead of connecting (`{ 'ws://127.0.0.1:9100/order-status':
   * orderStatusBot() }`). Others are connected to at their `ws://` address.
   */
  readonly bots?: Readonly<Record<string, TextBot>>;
  /**
   * Bots of the audio protocol run in this process, likewise (`{ 'ws://127.0.0.1:9200/echo':
   * echoAudioBot() }`): their audio is played in the page, and the page's microphone is their
   * caller's voice.
   */
  readonly audioBots?: Readonly<Record<string, AudioBot>>;
}

export interface DevConsole {
  readonly url: string;
  /** The dialplan's warnings (`file:line:col: warning: ...`). */
  readonly warnings: readonly string[];
  stop(): Promise<void>;
}

/**
 * `ringflow dev`: the simulator (in process, served on a loopback port as a real server would be),
 * the flows running on it through the runtime, and the console page with its live feed (SSE) and
 * the selected call's line (a WebSocket: a bot's audio to the page, the microphone to the bot).
 * Both run on one simulated clock the page can pause and step. Every call is recorded (what the
 * caller and the far ends did, what the flow did), so that it can be saved as a scenario file;
 * the scenario files beside the flows can be run from the page.
 */
export async function startDevConsole(options: DevConsoleOptions): Promise<DevConsole> {
  const time = new SteppedTime(() => feed.send({ type: 'clock', ...time.state() }));
  const now = () => time.clock.now();
  const feed = new ConsoleFeed(now);
  const recorder = new CallRecorder(now);
  // Each call's flow tells the feed its user events and failures, and the recorder its requests;
  // its agent steps talk with their bots through `agents` (made once the simulator listens).
  let agents: DevAgents | undefined;
  const agentsOf = (call: string) => {
    if (!agents) throw new Error('the console is not started yet');
    return agents.servicesFor(call);
  };
  const flows = await DevFlows.load(options.files, (flow) =>
    consoleMachine(flow, {}, feed, recorder, undefined, agentsOf),
  );
  const sounds = options.sounds === null ? undefined : SoundFolder.find(options.sounds);
  let watched: ReadonlyMap<string, unknown> = new Map();
  const server = await startDevSimulator({
    ...(options.dialplanFile !== undefined ? { dialplanFile: options.dialplanFile } : {}),
    ...(sounds ? { sounds } : {}),
    feed,
    recorder,
    time,
    followed: (id) => watched.has(id),
  });
  agents = new DevAgents({
    ariUrl: server.wire.url,
    driver: server.sim.driver,
    clock: time.clock,
    // On the call's timeline, and in its record (a saved call scripts its bot from them).
    told: (call, turn) => {
      feed.turn(call, turn);
      recorder.agentTurn(call, turn);
    },
    ...(options.bots ? { bots: options.bots } : {}),
    ...(options.audioBots ? { audioBots: options.audioBots } : {}),
  });
  const running = await startDevApplication({
    url: server.wire.url,
    flows,
    feed,
    recorder,
    clock: time.clock,
    forgotten: (id) => agents?.forget(id),
  });
  watched = running.watched;
  flows.watch(() => feed.send({ type: 'flows', flows: flows.describe() }));
  let callCount = 0;
  const posts = devConsoleHandlers({
    driver: server.sim.driver,
    flows: flows.byName,
    recorder,
    watched: () => running.watched,
    hasDialplan: server.dialplan !== undefined,
    inDialplan: server.inDialplan,
    nextCallId: () => `call-${++callCount}`,
    time,
    agents,
  });
  // The selected calls' lines: the audio their callers hear from bots, and their microphones.
  // The caller's voice talking is recorded as the talk buttons are (a saved call replays it).
  const lines = new CallLines(server.sim, { paused: () => time.state().paused, now }, (call, talking) =>
    recorder.callerDid(call, { kind: 'talk', talking }),
  );
  // The feeds are ended first: the page's server closes only once its connections are.
  const endFeeds = () => {
    flows.close();
    feed.close();
    lines.close();
  };
  const shutDown = async () => {
    endFeeds();
    // Time runs again, so that the calls' hang-ups are carried out.
    time.resume();
    await running.app.stop();
    await server.wire.close();
    time.close();
  };
  // The page's port may be taken: what was started is stopped before saying so.
  const http = await serveDevConsole(
    {
      gets: {
        '/': (_, res) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(consolePage());
        },
        '/api/flows': (_, res) => json(res, flows.describe()),
        '/api/softphone': (_, res) =>
          json(res, {
            dialplan: options.dialplanFile === undefined ? null : resolve(options.dialplanFile),
            context: DIALPLAN_CONTEXT,
            sounds: sounds?.dir ?? null,
          }),
        // The flows and the time's state come after the history: a page that reconnects to a
        // restarted console, or opens while paused, knows them at once.
        '/api/feed': (req, res) =>
          feed.serve(req, res, [
            { type: 'flows', flows: flows.describe() },
            { type: 'clock', ...time.state() },
          ]),
        '/api/scenarios': async (_, res) => json(res, await scenarioFilesOf(flows.files())),
      },
      prefixes: [['/api/sound', (req, res) => serveSound(sounds, req, res)]],
      upgrades: { '/api/line': (req, socket, head) => lines.accept(req, socket, head) },
      posts,
    },
    options.host ?? '127.0.0.1',
    options.port ?? 8089,
  ).catch(async (error: unknown) => {
    await shutDown();
    throw error;
  });
  return {
    url: urlOf(http),
    warnings: (server.dialplan?.warnings ?? []).map((w) => formatIssue(w)),
    async stop() {
      endFeeds();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      // What is still open (a request on its way, a connection half sent) is cut: the console is
      // going away, and its server closes only once every connection has.
      http.closeAllConnections();
      await closed;
      await shutDown();
    },
  };
}
