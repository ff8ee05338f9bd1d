import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Simulator } from '@ringflow/simulator';
import type { CallRecorder } from './CallRecorder.ts';
import { callToScenario, scenarioFileFor } from './callToScenario.ts';
import type { ClockReply, ConsoleRequests } from './consoleRequests.ts';
import type { DevAgents } from './devAgents.ts';
import type { LoadedFlow } from './devFlows.ts';
import { runScenarioFile, scenarioFilesOf } from './flowScenarios.ts';
import type { SteppedTime } from './SteppedTime.ts';
import type { WatchedCall } from './watchCalls.ts';

/** What the page's requests act on: the simulator's driver, the flows, the recorded calls. */
export interface DevConsoleContext {
  readonly driver: Simulator['driver'];
  readonly flows: ReadonlyMap<string, LoadedFlow>;
  readonly recorder: CallRecorder;
  /** The calls followed (their states and end), by channel id. */
  readonly watched: () => ReadonlyMap<string, WatchedCall>;
  /** Whether `--dialplan` was given (calls to an extension go through it). */
  readonly hasDialplan: boolean;
  /** Calls the page placed at an extension, until a flow takes them or they end. */
  readonly inDialplan: Set<string>;
  /** The id of the next call the page places (`call-1`, `call-2`, ...). */
  readonly nextCallId: () => string;
  /** The simulated time the page pauses, steps and resumes. */
  readonly time: SteppedTime;
  /** The calls' agent steps (the caller's typed words). */
  readonly agents: DevAgents;
}

/** The context the page's calls to an extension land in, as `ringflow call`'s do by default. */
export const DIALPLAN_CONTEXT = 'from-callers';

/** One handler per POST route of the page, each taking its typed body and answering JSON. */
export type PostHandlers = {
  readonly [P in keyof ConsoleRequests]: (body: ConsoleRequests[P]) => Promise<unknown> | unknown;
};

/**
 * The handlers of the page's POST requests (place a call, keys, talk, hang up, far ends, save a
 * call as a test, run scenarios, pause, step and resume the simulated time).
 *
 * @example
 * const posts = devConsoleHandlers(context);
 * await posts.dtmf({ call: 'call-1', digits: '1' });
 */
export function devConsoleHandlers(ctx: DevConsoleContext): PostHandlers {
  const { driver, recorder } = ctx;
  const scenarioFiles = () =>
    scenarioFilesOf([...ctx.flows.entries()].map(([name, f]) => ({ name, file: f.file })));
  return {
    call: (body) => {
      const extension = body.extension;
      if (extension !== undefined && !/^[0-9A-Za-z*#+_.-]+$/.test(extension))
        throw new Error(`extension: expected digits or a name such as 100 or s, got "${extension}"`);
      const caller = body.from ?? '1000';
      const language = body.language ? { language: body.language } : {};
      if (!body.flow) {
        // Through the dialplan: it decides which flow (if any) takes the call; the call is
        // recorded from the moment a flow does (see startDevConsole's onCall).
        if (!ctx.hasDialplan)
          throw new Error(
            'no dialplan: give a flow, or start ringflow dev with --dialplan extensions.conf to call extensions',
          );
        if (extension === undefined)
          throw new Error('missing field "flow" (or "extension", for the dialplan)');
        const placing = ctx.nextCallId();
        ctx.inDialplan.add(placing);
        const id = driver.placeCall({
          from: caller,
          to: extension,
          context: DIALPLAN_CONTEXT,
          channelId: placing,
          ...language,
        });
        return { id };
      }
      const loaded = ctx.flows.get(body.flow);
      if (!loaded) throw new Error(`no flow named "${body.flow}"`);
      const placing = ctx.nextCallId();
      // Straight into the flow, with the extension (default s) as the number dialled.
      recorder.placed(placing, {
        flow: body.flow,
        flowFile: loaded.file,
        caller,
        extension: extension ?? 's',
        ...language,
      });
      const id = driver.placeCall({
        from: caller,
        app: body.flow,
        channelId: placing,
        ...(extension !== undefined ? { to: extension } : {}),
        ...language,
      });
      return { id };
    },
    dtmf: ({ call, digits }) => {
      driver.pressDigits(call, digits);
      recorder.callerDid(call, { kind: 'press', digits });
      return {};
    },
    talk: ({ call, talking }) => {
      if (talking) driver.startTalking(call);
      else driver.stopTalking(call);
      recorder.callerDid(call, { kind: 'talk', talking });
      return {};
    },
    // Typed words spoken as the caller to the call's agent step (refused when none listens).
    say: ({ call, text }) => {
      ctx.agents.say(call, text);
      recorder.callerDid(call, { kind: 'say', text });
      return {};
    },
    hangup: ({ call }) => {
      driver.hangup(call);
      if (recorder.callOfFarEnd(call) !== undefined) recorder.farEndDid(call, 'hungUp');
      else if (ctx.watched().get(call)?.endedAt === undefined) recorder.callerDid(call, { kind: 'hangup' });
      return {};
    },
    answer: ({ call }) => {
      driver.answer(call);
      recorder.farEndDid(call, 'answered');
      return {};
    },
    reject: ({ call }) => {
      driver.reject(call);
      recorder.farEndDid(call, 'rejected');
      return {};
    },
    // Saves a call as a scenario file beside its flow (never over a file), then replays it.
    save: async ({ call }) => {
      const record = recorder.record(call, ctx.watched().get(call));
      if (!record) throw new Error(`no call "${call}" was seen by this console`);
      if (ctx.flows.get(record.flow)?.error)
        throw new Error(`the flow ${record.flow} has errors; fix them before saving a call as its test`);
      const file = scenarioFileFor(record, existsSync);
      const scenario = callToScenario(record, dirname(file));
      await writeFile(file, scenario.yaml, { flag: 'wx' });
      const [result] = await runScenarioFile(file);
      return { file, yaml: scenario.yaml, scenario: scenario.name, replay: result };
    },
    'scenarios/run': async (body) => {
      const file = resolve(body.file);
      // Only the scenario files this console lists (beside its flows) are run.
      if (!(await scenarioFiles()).some((k) => k.file === file))
        throw new Error(`${body.file} is not a scenario file of these flows (see GET /api/scenarios)`);
      return { file, results: await runScenarioFile(file, body.scenario) };
    },
    // The feed tells every page the new time; the one that asked also gets what the step did.
    clock: ({ action }): ClockReply => {
      if (action === 'pause') ctx.time.pause();
      if (action === 'resume') ctx.time.resume();
      const step = action === 'step' ? ctx.time.step() : undefined;
      return { ...ctx.time.state(), ...(step ? { step } : {}) };
    },
  };
}
