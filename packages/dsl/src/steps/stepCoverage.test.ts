import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type StepName, steps } from './index.ts';

/**
 * Where each step is run on the simulator: test file (beside this one) → test titles. The type
 * makes a new step without an entry a compile error; the test below makes it a failure too, and
 * checks that every named test exists and that its file uses the step.
 */
const scenarios: Record<StepName, Record<string, readonly string[]>> = {
  answer: { 'mediaSteps.simulator.test.ts': ['play with barge-in'] },
  play: {
    'mediaSteps.simulator.test.ts': [
      'play with barge-in: a key stops the prompt',
      'play in the caller language picks the catalogue',
    ],
  },
  gather: {
    'steps.simulator.test.ts': [
      'gather collects digits up to the terminator',
      'gather without input ends with noInput',
    ],
    'mediaSteps.simulator.test.ts': ['gather collects up to maxDigits, with validDigits'],
  },
  menu: {
    'mediaSteps.simulator.test.ts': [
      'menu: a listed key takes its choice',
      'menu: silence until noInput.max is exhausted',
    ],
  },
  record: {
    'record.simulator.test.ts': [
      'records with the defaults: beep, # ends it, overwrite',
      'terminateOn $terminateOn',
      'maxDuration ends the recording on time',
      'maxSilence ends after that much silence',
      'ifExists fail',
      'ifExists overwrite replaces the stored recording; append adds to it',
    ],
  },
  kick: { 'room.simulator.test.ts': ['mute, unmute and kick the last one who came in'] },
  conference: {
    'steps.simulator.test.ts': ['conference joins a named bridge'],
    'mediaSteps.simulator.test.ts': ['bridgeMoh starts and stops music on the conference bridge'],
  },
  leaveBridge: {
    'steps.simulator.test.ts': ['conference joins a named bridge'],
    'flowSteps.simulator.test.ts': ['a step failing in the error handler state'],
  },
  bridgePlay: { 'steps.simulator.test.ts': ['conference joins a named bridge and plays to it'] },
  bridgeMoh: {
    'mediaSteps.simulator.test.ts': ['bridgeMoh starts and stops music on the conference bridge'],
  },
  bridgeRecord: {
    'bridgeRecord.simulator.test.ts': [
      'starts a recording of the bridge, goes on while it runs, and stop: true stops it',
      'without a name records under a fresh id; stop by name stops that one',
      'a name already stored fails the step',
      'outside a bridge, or stopping with nothing started',
    ],
  },
  videoSource: {
    'steps.simulator.test.ts': ['videoSource sets it to this call'],
    'mediaSteps.simulator.test.ts': ['bridgeMoh starts and stops music on the conference bridge'],
  },
  talkDetection: {
    'callSteps.simulator.test.ts': ['talkDetection: the caller talking raises talkingStarted'],
  },
  queue: {
    'queue.simulator.test.ts': [
      'two callers queue',
      'round robin',
      'maximum wait',
      'the exit key',
      'a caller who hangs up while waiting',
      'a status set elsewhere on the server',
      'no agents',
    ],
  },
  queueAgent: { 'queue.simulator.test.ts': ['queueAgent: the last agent logging out'] },
  transfer: {
    'transfer.simulator.test.ts': [
      'blind to an endpoint',
      'blind into the dialplan',
      'attended, accepted by key',
      'attended, declined by $how',
    ],
  },
  detectMachine: {
    'detectMachine.simulator.test.ts': [
      'talk: a person',
      'talk: a machine with a beep',
      'server: AMD() in the dialplan',
    ],
  },
  dial: {
    'dial.simulator.test.ts': [
      'answered: the two calls are bridged',
      'far end $farEnd: outcome $outcome with the hangup cause',
      'bridge: false hands the answered call to the flow',
      'the caller hanging up while it rings hangs the dialled call up too',
      'an endpoint the server refuses fails the step',
      'announce plays to the called party alone on answer, then bridges the two calls',
      'announce: the called party hanging up during it ends the step, unbridged',
      'a list of far-end behaviours gives one per successive call',
    ],
  },
  originate: {
    'dial.simulator.test.ts': [
      'places a call into the dialplan without waiting for it',
      'into an application, by label; a refused request is the failed outcome',
    ],
  },
  continue: { 'steps.simulator.test.ts': ['continue in the dialplan'] },
  userEvent: { 'callSteps.simulator.test.ts': ['userEvent carries variables to another application'] },
  sendMessage: {
    'callSteps.simulator.test.ts': ['sendMessage sends a text message out through the endpoint'],
  },
  setChannelVar: { 'steps.simulator.test.ts': ['channel controls, wait, channel variables'] },
  getChannelVar: { 'steps.simulator.test.ts': ['channel controls, wait, channel variables'] },
  set: {
    'steps.simulator.test.ts': ['set, if and as work on the result'],
    'flowSteps.simulator.test.ts': ['set assigns variables in order from expressions'],
  },
  hold: { 'steps.simulator.test.ts': ['channel controls'] },
  unhold: { 'steps.simulator.test.ts': ['channel controls'] },
  mute: {
    'steps.simulator.test.ts': ['channel controls'],
    'room.simulator.test.ts': ['mute, unmute and kick the last one who came in'],
  },
  unmute: {
    'steps.simulator.test.ts': ['channel controls'],
    'room.simulator.test.ts': ['mute, unmute and kick the last one who came in'],
  },
  ring: { 'steps.simulator.test.ts': ['channel controls'] },
  stopRinging: { 'steps.simulator.test.ts': ['channel controls'] },
  startSilence: { 'steps.simulator.test.ts': ['channel controls'] },
  stopSilence: { 'steps.simulator.test.ts': ['channel controls'] },
  startMoh: { 'steps.simulator.test.ts': ['channel controls'] },
  stopMoh: { 'steps.simulator.test.ts': ['channel controls'] },
  snoop: { 'callSteps.simulator.test.ts': ['snoop: spy and whisper channels on the call'] },
  deviceState: { 'callSteps.simulator.test.ts': ['deviceState sets a Stasis: device'] },
  mailbox: {
    'callSteps.simulator.test.ts': [
      'mailbox sets message counts',
      'a mailbox name the client refuses fails the step',
    ],
  },
  http: { 'steps.simulator.test.ts': ['http calls a loopback webhook'] },
  wait: {
    'steps.simulator.test.ts': ['channel controls, wait'],
    'flowSteps.simulator.test.ts': ['wait holds the call that long'],
  },
  hangup: { 'flowSteps.simulator.test.ts': ['hangup sends its reason'] },
  subflow: { 'steps.simulator.test.ts': ['subflows return output'] },
  agent: {
    'agent.simulator.test.ts': ['the caller talks with the bot, which answers from a tool and hands off'],
  },
};

/** The titles of the tests a file declares (`it('...'` and `it.each(...)('...'`). */
function testTitles(source: string): string[] {
  return [...source.matchAll(/\bit(?:\.each\([\s\S]*?\))?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) =>
    (m[2] ?? '').replace(/\\(.)/g, '$1'),
  );
}

/** Does the source use the step in a flow (as a key, or as a bare name in a step list)? */
function usesStep(source: string, step: string): boolean {
  return new RegExp(`(?:[{,\\s]${step}:\\s*[{\\[']|'${step}'|"${step}")`).test(source);
}

describe('every step runs on the simulator', () => {
  it('has a simulator scenario for each step exported by steps, and no entry for a step that does not exist', () => {
    const names = Object.keys(steps).sort();
    expect(Object.keys(scenarios).sort()).toEqual(names);
    for (const name of names)
      expect(
        Object.keys(scenarios[name as StepName]).length,
        `${name} has no simulator test`,
      ).toBeGreaterThan(0);
  });

  it.each(Object.entries(scenarios))('%s: the named tests exist and use the step', (step, files) => {
    for (const [file, titles] of Object.entries(files)) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(usesStep(source, step), `${file} never uses the step ${step}`).toBe(true);
      const declared = testTitles(source);
      for (const title of titles)
        expect(
          declared.some((d) => d.includes(title)),
          `${file} has no test titled like "${title}" (its tests: ${declared.join(' | ')})`,
        ).toBe(true);
    }
  });
});
