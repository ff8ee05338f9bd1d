import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDiagnostic, parseFlow } from '@ringflow/dsl';
import { type AudioBot, serveAudioBot } from '@ringflow/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallScenario, testCalls } from '../CallScenario.ts';
import { loadScenarioFile, type ScenarioSuite } from '../loadScenarioFile.ts';
import { runScenario } from '../runScenario.ts';
import { until } from '../until.ts';

/**
 * Scenario files with audio bots (protocol: audio steps): the bot module's rule (audioBot, given
 * the scenario's clock), the caller's talk:/say: reaching the bot as frames, the bot's audio
 * heard, the expectations of audio bots, and the positioned errors when a bot does not speak the
 * step's protocol.
 */

const LINE = `
name: line
start: talk
states:
  talk:
    steps:
      - answer
      - agent:
          bot: ws://127.0.0.1:9/parrot
          protocol: audio
          callerTimeout: 5s
          as: chat
          on:
            handoff: handed
            failed: { goto: ended, set: { how: failed } }
            unreachable: { goto: ended, set: { how: unreachable } }
            callerSilent: { goto: ended, set: { how: callerSilent } }
  handed:
    steps:
      - userEvent:
          name: Ended
          variables: { how: handoff, frames: { expr: "string(vars.chat.data.frames)" } }
      - hangup
  ended:
    steps:
      - userEvent: { name: Ended, variables: { how: { expr: "vars.how" } } }
      - hangup
`;

/**
 * A bot in a few lines: once the caller has been quiet 400 ms, it plays back one 20 ms frame of
 * tone per frame it heard, marks it, and ends with handoff (data: the frames it heard) once heard.
 */
const PARROT = `
const tone = (frames) => {
  const bytes = new Uint8Array(frames * 640);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < frames * 320; i++) view.setInt16(i * 2, Math.round(5000 * Math.sin(i / 3)), true);
  return bytes;
};
export const audioBot = ({ clock }) => (c) => {
  let frames = 0;
  let quiet;
  c.onAudio(() => {
    frames++;
    clock.clearTimeout(quiet);
    quiet = clock.setTimeout(() => {
      const audio = tone(frames);
      c.sendAudio(audio.subarray(0, 640));
      c.sendAudio(audio.subarray(640));
      c.send({ type: 'mark', name: 'back' });
    }, 400);
  });
  c.onMessage((m) => {
    if (m.type === 'mark' && m.played) c.send({ type: 'end', result: 'handoff', data: { frames } });
  });
};
`;

const TEXT_BOT = `export default (c) => c.onMessage(() => {});\n`;

async function files(parts: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ringflow-audio-bots-'));
  for (const [name, text] of Object.entries(parts)) await writeFile(join(dir, name), text);
  return dir;
}

async function suiteOf(parts: Record<string, string>): Promise<ScenarioSuite> {
  const dir = await files({ 'line.yaml': LINE, 'parrot.mjs': PARROT, 'text.mjs': TEXT_BOT, ...parts });
  const loaded = await loadScenarioFile(join(dir, 'line.test.yaml'));
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\n'));
  return loaded.suite;
}

async function problemsOf(parts: Record<string, string>): Promise<string[]> {
  const dir = await files({ 'line.yaml': LINE, 'parrot.mjs': PARROT, 'text.mjs': TEXT_BOT, ...parts });
  const loaded = await loadScenarioFile(join(dir, 'line.test.yaml'));
  expect(loaded.ok).toBe(false);
  return loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
}

async function run(suite: ScenarioSuite, name: string) {
  const scenario = suite.scenarios.find((s) => s.name === name)!;
  return runScenario(suite, scenario);
}

describe('scenario files with an audio bot module', () => {
  it("the caller's talk: reaches the bot as 20 ms frames; its answer is heard; expectations pass", async () => {
    const suite = await suiteOf({
      'line.test.yaml': `
bot: ./parrot.mjs
scenarios:
  - name: talk
    steps:
      - wait: 1s
      - talk: 1s
      - wait: 2s
      - expect:
          bot: { heard: { atLeast: 1s, atMost: 1.1s }, marks: { played: [back] }, ended: handoff, interrupted: 0 }
          userEvent: { name: Ended, variables: { how: handoff } }
`,
    });
    const result = await runScenario(suite, suite.scenarios[0]!, { timeline: true });
    expect(result.failure?.message).toBeUndefined();
    // The bot's messages on the timeline: its audio sent together is one line, before its mark.
    const notes = result.timeline!.flatMap((e) => (e.kind === 'caller' ? [`${e.at} ${e.text}`] : []));
    expect(notes).toEqual([
      '0 bot connected (setup sent)',
      '1000 caller talks for 1000 ms',
      '2400 bot sends 1000 ms of audio',
      '2400 bot asks for mark back',
      "3420 mark back played: the caller heard the bot's audio to it",
      '3420 bot ends: handoff {"frames":50}',
    ]);
  });

  it('say: is the caller talking 300 ms a word: the bot hears that many frames', async () => {
    const suite = await suiteOf({
      'line.test.yaml': `
bot: ./parrot.mjs
scenarios:
  - name: say
    steps:
      - wait: 1s
      - say: one two three four
      - wait: 3s
      - expect:
          userEvent: { name: Ended, variables: { how: handoff } }
          bot: { heard: { atLeast: 1.2s, atMost: 1.25s } }
`,
    });
    const result = await run(suite, 'say');
    expect(result.failure?.message).toBeUndefined();
  });

  it('expectations that do not hold say what the caller heard and which marks came back', async () => {
    const suite = await suiteOf({
      'line.test.yaml': `
bot: ./parrot.mjs
scenarios:
  - name: too much
    steps:
      - talk: 1s
      - wait: 2s
      - expect: { bot: { heard: { atLeast: 2s } } }
  - name: marks
    steps:
      - talk: 1s
      - wait: 2s
      - expect: { bot: { marks: { played: [back], dropped: [back] } } }
  - name: cleared
    steps:
      - talk: 1s
      - wait: 2s
      - expect: { bot: { interrupted: 1 } }
  - name: silent
    steps:
      - wait: 6s
      - expect: { bot: { ended: handoff } }
  - name: silent as expected
    steps:
      - wait: 6s
      - expect: { bot: { ended: callerSilent }, userEvent: { name: Ended, variables: { how: callerSilent } } }
`,
    });
    expect((await run(suite, 'too much')).failure?.message).toContain(
      "expected caller to hear at least 2 s of the bot's audio\nbut caller heard 1 s",
    );
    expect((await run(suite, 'marks')).failure?.message).toContain(
      "expected the bot's marks back dropped\nbut dropped: none; back played",
    );
    expect((await run(suite, 'silent')).failure?.message).toContain(
      'expected the session to end with handoff\nbut ringflow ended it: callerSilent',
    );
    expect((await run(suite, 'silent as expected')).failure?.message).toBeUndefined();
    expect((await run(suite, 'cleared')).failure?.message).toContain(
      "expected the bot's audio to be cut short 1 time(s) (caller talking over it, or the bot's clear)\nbut 0 time(s); caller heard 1 s of sound",
    );
  });

  it('bot: unreachable fits an audio step: the flow takes its unreachable path', async () => {
    const suite = await suiteOf({
      'line.test.yaml': `
bot: unreachable
scenarios:
  - name: down
    steps:
      - wait: 100ms
      - expect:
          userEvent: { name: Ended, variables: { how: unreachable } }
          noAction: channels.externalMedia
          bot: { heard: { atMost: 0s } }
`,
    });
    expect((await run(suite, 'down')).failure?.message).toBeUndefined();
  });

  it('a bot that does not speak the step protocol is an error at bot:, naming the step', async () => {
    const problems = await problemsOf({
      'line.test.yaml': `
bot: ./text.mjs
scenarios:
  - name: a
    steps: [{ wait: 1s }]
  - name: b
    bot: { greet: Hello }
    steps: [{ wait: 1s }]
`,
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^2:6 the bot module \.\/text\.mjs exports a text bot only \(default\), but the agent step at .*line\.yaml:8:9 speaks protocol: audio: export audioBot, a function given \{ clock \} that returns an AudioBot$/,
    );
    expect(problems[1]).toMatch(
      /^7:10 a scripted bot \(\{ greet, turns \}\) speaks the text relay, but the agent step at .*line\.yaml:8:9 speaks protocol: audio/,
    );
  });

  it('an audio bot module for a text relay step is an error too', async () => {
    const problems = await problemsOf({
      'line.yaml': LINE.replace('protocol: audio', 'protocol: text'),
      'line.test.yaml': 'bot: ./parrot.mjs\nscenarios:\n  - name: a\n    steps: [{ wait: 1s }]\n',
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^1:6 the bot module \.\/parrot\.mjs exports an audio bot only \(audioBot\), but the agent step at .*line\.yaml:8:9 speaks the text relay/,
      ),
    ]);
  });

  it('a module that exports no bot says how to write one', async () => {
    const problems = await problemsOf({
      'none.mjs': 'export const greeting = 1;\n',
      'line.test.yaml': 'bot: ./none.mjs\nscenarios:\n  - name: a\n    steps: [{ wait: 1s }]\n',
    });
    expect(problems[0]).toContain(
      'exports no bot: export default (conversation) => { ... } (a TextBot, text relay), or export const audioBot = ({ clock }) => (conversation) => { ... } (an audio bot, protocol: audio)',
    );
  });

  it('an audioBot that is an AudioBot rather than a function giving one: the scenario says so', async () => {
    const suite = await suiteOf({
      'direct.mjs': 'export const audioBot = (c) => { c.onAudio?.(() => {}); };\n',
      'line.test.yaml': `
bot: ./direct.mjs
scenarios:
  - name: direct
    steps:
      - wait: 1s
      - expect: { userEvent: { name: Ended, variables: { how: unreachable } } }
`,
    });
    const result = await runScenario(suite, suite.scenarios[0]!, { timeline: true });
    expect(result.failure?.message).toBeUndefined();
    expect(result.timeline?.map((e) => ('text' in e ? e.text : ''))).toContainEqual(
      expect.stringContaining(
        'audioBot gave nothing: it is a function given { clock } that returns the AudioBot',
      ),
    );
  });
});

describe('testCalls with an audio bot', () => {
  let scenario: CallScenario | undefined;
  afterEach(async () => {
    await scenario?.close();
    scenario = undefined;
  });

  const flow = () => {
    const parsed = parseFlow(LINE, 'line.yaml');
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    return parsed.flow;
  };

  /** Answers each frame of the caller with one of its own, then ends once the caller stopped. */
  const mirror: AudioBot = (c) => {
    let frames = 0;
    c.onAudio((frame) => {
      frames++;
      c.sendAudio(frame);
      if (frames === 25) c.send({ type: 'end', result: 'handoff', data: { frames } });
    });
  };

  it('{ url }: a bot served on a real WebSocket, reached with the audio protocol', async () => {
    const served = await serveAudioBot(mirror, { port: 0, path: '/mirror' });
    try {
      scenario = await testCalls(flow(), { calls: { caller: {} }, bot: { url: served.url } });
      const s = scenario;
      const caller = s.call('caller');
      await s.wait('100ms');
      await until('the bot connected', () =>
        s.agents.exchanges('caller').some((e) => 'type' in e.message && e.message.type === 'setup')
          ? true
          : undefined,
      );
      await caller.talk('500ms');
      // Virtual time stands still while the frames cross the socket in real time.
      await until("the bot's end", () =>
        s.agents.exchanges('caller').some((e) => 'type' in e.message && e.message.type === 'end')
          ? true
          : undefined,
      );
      await s.wait('1s');
      caller.expectUserEvent('Ended', { how: 'handoff', frames: '25' });
    } finally {
      await served.close();
    }
  });

  it('an audio bot given to a text relay step: unreachable, and the timeline says why', async () => {
    const parsed = parseFlow(LINE.replace('protocol: audio', 'protocol: text'), 'line.yaml');
    if (!parsed.ok) throw new Error('flow');
    scenario = await testCalls(parsed.flow, {
      calls: { caller: {} },
      bot: { audioBot: () => mirror },
    });
    await scenario.wait('1s');
    scenario.call('caller').expectUserEvent('Ended', { how: 'unreachable' });
    expect(scenario.timeline().map((e) => ('text' in e ? e.text : ''))).toContainEqual(
      "the scenario's bot is an audio bot (audioBot), and this agent step speaks the text relay (give a TextBot)",
    );
  });
});
