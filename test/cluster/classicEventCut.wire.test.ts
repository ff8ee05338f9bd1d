import { afterEach, describe, expect, it } from 'vitest';
import { endings, holds, runCleanups, said, startClassicCluster, until } from './classicProcesses.ts';

/**
 * No call left behind (issue 27), classic cluster: the holder's event WebSocket is cut for 3 s by
 * a TCP proxy exactly while the callers' greetings end, so every `PlaybackFinished` is lost for
 * every worker. When the holder is connected again it publishes a gap marker; each worker checks
 * its calls with the server and is told the prompts finished (`call recovered after a gap`): every
 * call goes on to the main menu and ends normally. Before, the workers kept the calls and they
 * stayed silent in the greeting for good. The same with the callers' voicemail recordings ending
 * in the cut.
 */

afterEach(runCleanups);

const CALLERS = 6;

describe('classic cluster: the event socket is cut while prompts end', () => {
  it('every worker is told its prompts finished, and every call goes on to the menu and ends normally', async () => {
    // A 2.5 s greeting: every caller's has started before the first one ends, even under load.
    const { sim, wire, events, procs, promptsHeard } = await startClassicCluster(2, {
      eventProxy: true,
      sounds: { extraSounds: [{ id: 'hello-world', durationMs: 2500 }] },
    });
    /** Calls whose greeting ended on the server (whoever heard it). */
    const greetingEnded = new Set<string>();
    sim.driver.onEvent((e) => {
      const playback = e.playback as { media_uri?: string; target_uri?: string } | undefined;
      if (e.type === 'PlaybackFinished' && playback?.media_uri === 'sound:hello-world')
        greetingEnded.add(String(playback.target_uri).replace('channel:', ''));
    });
    const calls = Array.from({ length: CALLERS }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every greeting to start', () =>
      calls.every((c) => promptsHeard(c, 'sound:hello-world') === 1),
    );
    const cutAt = Date.now();
    events!.down();
    await until('the event socket gone', () => wire.eventConnections === 0);
    const menu = (c: string) => promptsHeard(c, 'sound:demo-instruct') > 0;
    await until('every greeting to end on the server', () => calls.every((c) => greetingEnded.has(c)));
    const before = calls.filter(menu);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 3000 - (Date.now() - cutAt))));
    events!.restore();
    await until('every call in the main menu', () => calls.every(menu));
    // The calls whose greeting ended in the cut were told so by the gap's recovery (not found later
    // by a watchdog): one 'call recovered after a gap' line per such call, over the workers.
    const lost = calls.filter((c) => !before.includes(c));
    expect(lost.length).toBeGreaterThan(0);
    const recovered = procs.flatMap((p) =>
      said(p, 'call recovered after a gap: told the machine what it missed').map((l) => l.call),
    );
    expect(recovered.sort()).toEqual(lost.sort());
    expect(procs.some(holds)).toBe(true);
    for (const c of calls) sim.driver.hangup(c);
    await until('every call to end', () => endings(procs).length === CALLERS);
    expect(endings(procs).map((e) => e.outcome)).toEqual(Array(CALLERS).fill('completed'));
  }, 120_000);
});

describe('classic cluster: the event socket is cut while voicemail recordings end', () => {
  it('every worker is told its recordings finished, and every caller’s message is reported', async () => {
    const { sim, events, voicemails, procs } = await startClassicCluster(2, { eventProxy: true });
    const recording = new Set<string>();
    /** Calls whose recording ended on the server (whoever heard it). */
    const recorded = new Set<string>();
    const callOf = (target: unknown) => String(target).replace('channel:', '');
    sim.driver.onEvent((e) => {
      const playback = e.playback as { media_uri?: string; target_uri?: string } | undefined;
      // Voicemail (3) at the main menu.
      if (e.type === 'PlaybackStarted' && playback?.media_uri === 'sound:demo-instruct')
        sim.driver.pressDigits(callOf(playback.target_uri), '3');
      const target = (e.recording as { target_uri?: string } | undefined)?.target_uri;
      if (e.type === 'RecordingStarted') recording.add(callOf(target));
      if (e.type === 'RecordingFinished') recorded.add(callOf(target));
    });
    const calls = Array.from({ length: CALLERS }, () => sim.driver.placeCall({ context: 'pbx', to: '100' }));
    await until('every recording to start', () => calls.every((c) => recording.has(c)), 60_000);
    // They end after 5 s of silence: the socket is down from before (most of) them end to after.
    events!.down();
    const before = new Set(recorded);
    await until('every recording to end on the server', () => calls.every((c) => recorded.has(c)), 30_000);
    events!.restore();
    await until('every caller’s message reported', () => calls.every((c) => voicemails.get(c) === 1), 60_000);
    // The recordings the flow names (voicemail/<channel>) are checked after the gap like any
    // other: before, nothing was told and the callers stayed in silence until they hung up.
    const lost = calls.filter((c) => !before.has(c));
    expect(lost.length).toBeGreaterThan(0);
    const recovered = procs.flatMap((p) =>
      said(p, 'call recovered after a gap: told the machine what it missed').map((l) => l.call),
    );
    expect(recovered.sort()).toEqual(lost.sort());
    await until('every call to end', () => endings(procs).length === CALLERS, 30_000);
    expect(endings(procs).map((e) => e.outcome)).toEqual(Array(CALLERS).fill('completed'));
  }, 180_000);
});
