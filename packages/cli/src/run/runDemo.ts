import type { Clock } from '@ringflow/client';
import type { Flow } from '@ringflow/dsl';
import { formatCallEnd } from '@ringflow/runtime';
import {
  type CallEnd,
  type CallScenario,
  type FlowTestCall,
  formatFailure,
  formatOffset,
  testCalls,
  testFlow,
  type TimelineEntry,
  toMs,
} from '@ringflow/testing';
import type { CommandIo } from '../CommandIo.ts';
import type { OutputFormat } from '../OutputFormat.ts';
import type { DemoAction, DemoCaller } from './demoCallers.ts';
import { describeAction } from './describeAction.ts';

export interface DemoOptions {
  readonly flow: Flow;
  readonly flowFile: string;
  readonly callers: readonly DemoCaller[];
  /** Virtual milliseconds per real millisecond; `Infinity` runs as fast as possible. */
  readonly speed: number;
  /** A call still up after this much virtual time is hung up by its caller. */
  readonly limitMs: number;
  readonly format: OutputFormat;
  readonly io: CommandIo;
  /** The real clock that paces virtual time. */
  readonly clock: Clock;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM): the callers hang up and the demo ends. */
  readonly stop: Promise<unknown>;
}

/** How one demo call went. */
export interface DemoCallResult {
  readonly label: string;
  readonly end: CallEnd | undefined;
  readonly states: readonly string[];
}

const TICK_REAL_MS = 100;

interface Running {
  readonly n: number;
  readonly caller: DemoCaller;
  readonly call: FlowTestCall;
  readonly t0: number;
  /** The timeline entries shown as this call's (a scene's timeline holds all its calls'). */
  readonly owns: (entry: TimelineEntry) => boolean;
  next: number;
  shown: number;
  endShown: boolean;
}

/**
 * Runs simulated callers against a flow, side by side in virtual time paced on the real clock
 * (`speed` times faster), printing a live view of each call (states, actions, caller actions)
 * and a summary. Each caller's call runs through the runtime on an in-process simulator of its
 * own, so each can have its own far ends and time of day, exactly as in its scenario.
 *
 * @example
 * const results = await runDemo({ flow, flowFile, callers, speed: 20, limitMs: 300_000, format: 'text', io, clock: systemClock, stop });
 */
export async function runDemo(options: DemoOptions): Promise<DemoCallResult[]> {
  const { io, callers, format } = options;
  const line = (value: Record<string, unknown>, text: string) =>
    io.stdout(format === 'json' ? `${JSON.stringify(value)}\n` : `${text}\n`);
  const pace = Number.isFinite(options.speed) ? `at ${options.speed}x` : 'as fast as possible';
  line(
    {
      event: 'demo',
      flow: options.flow.document.name,
      file: options.flowFile,
      callers: callers.length,
      speed: options.speed,
    },
    `ringflow: running flow "${options.flow.document.name}" (${options.flowFile}) on the embedded simulator\n` +
      `${callers.length} simulated caller${callers.length === 1 ? '' : 's'}, virtual time ${pace}. Ctrl-C stops.\n`,
  );
  const running: Running[] = [];
  const scenes = new Map<number, { scenario: CallScenario; t0: number }>();
  for (const [i, caller] of callers.entries()) {
    const { call, t0 } = await placeCall(options.flow, callers, i, scenes);
    running.push({
      n: i + 1,
      caller,
      call,
      t0,
      owns: ownedBy(callers, i),
      next: 0,
      shown: 0,
      endShown: false,
    });
    line(
      { event: 'caller', call: i + 1, caller: caller.options.caller ?? '5551234', label: caller.label },
      `  #${i + 1}  ${caller.options.caller ?? '5551234'} calls ${caller.options.extension ?? '100'}: ${caller.label}`,
    );
  }
  if (format === 'text') io.stdout('\n');
  let stopped = false;
  void options.stop.then(() => {
    stopped = true;
  });
  const realStart = options.clock.now();
  const step = Number.isFinite(options.speed) ? TICK_REAL_MS * options.speed : 1000;
  let t = 0;
  const elapsed = (r: Running) => r.call.clock.now() - r.t0;
  const live = () => running.filter((r) => r.call.end() === undefined);
  // A caller of a scene acts while any call of its scene is up: the scene's own steps (an agent
  // hanging up) go with its first caller, whose own call may have ended long before.
  const sceneUp = (r: Running) =>
    r.call.end() === undefined ||
    (r.caller.scene !== undefined &&
      running.some((o) => o.caller.scene?.id === r.caller.scene?.id && o.call.end() === undefined));
  const worlds = new Map<string, Running[]>();
  for (const r of running) {
    const key = r.caller.scene ? `scene ${r.caller.scene.id}` : `call ${r.n}`;
    worlds.set(key, [...(worlds.get(key) ?? []), r]);
  }
  while (live().length > 0) {
    if (stopped || t >= options.limitMs) {
      for (const r of live()) await r.call.hangUp().catch(() => {});
      for (const r of running) await r.call.wait(1000);
      show(running, line);
      break;
    }
    t += step;
    // Each world (a call of its own, or a scene's calls on their shared simulator) runs its
    // callers' actions in time order, then lets its clock reach t.
    for (const members of worlds.values()) {
      const active = members.filter(sceneUp);
      if (active.length === 0) continue;
      for (let next = nextAction(active, t); next; next = nextAction(active, t)) {
        const { r, a } = next;
        r.next++;
        await r.call.wait(Math.max(0, a.at - elapsed(r)));
        if (!sceneUp(r)) continue;
        await a.act(r.call).catch((error: Error) => {
          line(
            { event: 'note', call: r.n, message: error.message },
            `  #${r.n}  (${error.message.split('\n')[0]})`,
          );
        });
      }
      await active[0]!.call.wait(Math.max(0, t - elapsed(active[0]!)));
    }
    show(running, line);
    if (Number.isFinite(options.speed)) await sleep(options.clock, TICK_REAL_MS);
  }
  // What has not been shown yet: all of a call that ended at its first instant (a flow failing at
  // its first step never let the loop run).
  show(running, line);
  const results = running.map((r) => ({ label: r.caller.label, end: r.call.end(), states: r.call.states() }));
  summary(results, options.clock.now() - realStart, line, format);
  for (const r of running) await r.call.close();
  return results;
}

/**
 * The call of caller `i`: on a simulator of its own, or, for a caller of a scene (a scenario with
 * several calls), on its scene's, started with all the scene's callers when its first one comes.
 * `t0` is when its script's times count from.
 */
async function placeCall(
  flow: Flow,
  callers: readonly DemoCaller[],
  i: number,
  scenes: Map<number, { scenario: CallScenario; t0: number }>,
): Promise<{ call: FlowTestCall; t0: number }> {
  const caller = callers[i]!;
  const scene = caller.scene;
  if (!scene) {
    const call = await testFlow(flow, { ...caller.options, channelId: `c${i + 1}` });
    return { call, t0: call.clock.now() };
  }
  let started = scenes.get(scene.id);
  if (!started) {
    const members = callers.filter((c) => c.scene?.id === scene.id);
    const calls = Object.fromEntries(
      members.map((m) => [
        m.scene!.name,
        { ...m.options, at: m.scene!.at, ...(m.scene!.flow !== undefined ? { flow: m.scene!.flow } : {}) },
      ]),
    );
    const scenario = await testCalls(flow, { ...scene.world, calls });
    started = { scenario, t0: scenario.clock.now() };
    scenes.set(scene.id, started);
  }
  return { call: started.scenario.call(scene.name), t0: started.t0 };
}

/**
 * Which entries of its timeline are caller `i`'s: all of a call of its own; in a scene, those
 * about it, and the scene's own (an agent hanging up) for its first caller.
 */
function ownedBy(callers: readonly DemoCaller[], i: number): (entry: TimelineEntry) => boolean {
  const scene = callers[i]!.scene;
  if (!scene) return () => true;
  const first = callers.find((c) => c.scene?.id === scene.id) === callers[i];
  return (entry) => (entry.call === undefined ? first : entry.call === scene.name);
}

/** The earliest action due by `t` among callers sharing a world, with its caller. */
function nextAction(members: readonly Running[], t: number): { r: Running; a: DemoAction } | undefined {
  let next: { r: Running; a: DemoAction } | undefined;
  for (const r of members) {
    const a = r.caller.script[r.next];
    if (a !== undefined && a.at <= t && (next === undefined || a.at < next.a.at)) next = { r, a };
  }
  return next;
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/** Prints the timeline entries not shown yet, of every call, and ends, in virtual time order. */
function show(
  running: readonly Running[],
  line: (value: Record<string, unknown>, text: string) => void,
): void {
  const fresh: { n: number; entry: TimelineEntry; timeline: readonly TimelineEntry[] }[] = [];
  for (const r of running) {
    const timeline = r.call.timeline();
    const own = timeline.filter(r.owns);
    for (const entry of timeline.slice(r.shown))
      if (entry.kind !== 'end' && r.owns(entry)) fresh.push({ n: r.n, entry, timeline: own });
    r.shown = timeline.length;
    const end = r.call.end();
    if (end && !r.endShown) {
      r.endShown = true;
      // A call's end counts from its arrival; a scene's timeline from the scene's start.
      const at = end.at + toMs(r.caller.scene?.at ?? 0, 'at');
      fresh.push({
        n: r.n,
        entry: { kind: 'end', at, text: `call ended: ${formatCallEnd(end)}` },
        timeline: [],
      });
    }
  }
  // Stable: entries of one call keep their order; an end comes after what happened at its instant.
  fresh.sort((a, b) => a.entry.at - b.entry.at || a.n - b.n);
  for (const { n, entry, timeline } of fresh) {
    const at = formatOffset(entry.at);
    switch (entry.kind) {
      case 'state':
        line({ call: n, at: entry.at, kind: 'state', state: entry.state }, `${at}  #${n}  ◆ ${entry.state}`);
        break;
      case 'action':
        line(
          {
            call: n,
            at: entry.at,
            kind: 'action',
            method: entry.method,
            path: entry.path,
            operation: entry.operation,
            status: entry.status,
          },
          `${at}  #${n}      → ${describeAction(entry, timeline)}`,
        );
        break;
      case 'caller':
        line({ call: n, at: entry.at, kind: 'caller', text: entry.text }, `${at}  #${n}  ☎ ${entry.text}`);
        break;
      case 'end':
        line({ call: n, at: entry.at, kind: 'end', text: entry.text }, `${at}  #${n}  ■ ${entry.text}`);
        break;
      case 'outcome':
        line(
          {
            call: n,
            at: entry.at,
            kind: 'outcome',
            step: entry.step,
            outcome: entry.outcome,
            detail: entry.detail,
          },
          `${at}  #${n}      ◇ ${entry.step} → ${entry.outcome}${entry.detail ? ` ${entry.detail}` : ''}`,
        );
        break;
      case 'failure':
        line(
          { call: n, at: entry.at, kind: 'failure', failure: entry.failure },
          `${at}  #${n}      ✗ ${formatFailure(entry.failure)}`,
        );
        break;
      case 'event':
        break; // events are the detail behind the actions: `ringflow test` failures show them
    }
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function summary(
  results: readonly DemoCallResult[],
  realMs: number,
  line: (value: Record<string, unknown>, text: string) => void,
  format: OutputFormat,
): void {
  const callMs = results.reduce((sum, r) => sum + (r.end?.at ?? 0), 0);
  const outcomes = new Map<string, number>();
  for (const r of results) {
    const key = r.end ? r.end.status : 'still up';
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const outcomeText = [...outcomes].map(([k, v]) => `${v} ${k}`).join(', ');
  if (format === 'json') {
    line(
      {
        event: 'summary',
        calls: results.length,
        outcomes: Object.fromEntries(outcomes),
        callMs,
        realMs,
        results: results.map((r) => ({
          label: r.label,
          status: r.end?.status,
          by: r.end?.by,
          ms: r.end?.at,
          states: r.states,
        })),
      },
      '',
    );
    return;
  }
  const rows = results.map((r, i) => {
    const how = r.end ? formatCallEnd(r.end) : 'still up';
    return `  #${i + 1}  ${how.padEnd(28)} ${seconds(r.end?.at ?? 0).padStart(7)}  ${r.states.join(' → ')}\n       ${r.label}`;
  });
  line(
    {},
    `\nSummary: ${results.length} call${results.length === 1 ? '' : 's'} (${outcomeText}), ${seconds(callMs)} of calls in ${seconds(realMs)} of real time\n${rows.join('\n')}`,
  );
}
