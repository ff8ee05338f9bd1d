import { afterEach, describe, expect, it } from 'vitest';
import { endings, holds, runCleanups, said, startClassicCluster, until } from './classicProcesses.ts';

/**
 * No call left behind (issue 27), classic cluster: the holder's event WebSocket is cut for 3 s by
 * a TCP proxy exactly while the callers' greetings end, so every `PlaybackFinished` is lost for
 * every worker. When the holder is connected again it publishes a gap marker; each worker checks
 * its calls with the server and is told the prompts finished (`call recovered after a gap`): every
 * call goes on to the main menu and ends normally. Before, the workers kept the calls and they
 * stayed silent in the greeting for good.
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
