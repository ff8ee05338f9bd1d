/**
 * Runs the conference application.
 *
 *   npx tsx examples/conference/main.ts               # demo: embedded simulator over HTTP/WebSocket, 3 callers
 *   ARI_URL=http://127.0.0.1:8088/ari ARI_USER=asterisk ARI_PASSWORD=secret npx tsx examples/conference/main.ts
 *
 * On a server, callers reach it with `Stasis(conference,<room>)` in the dialplan.
 */
import { installShutdownHandlers } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { createConferenceApp } from './createConferenceApp.ts';

const url = process.env.ARI_URL;
if (url) {
  const { app } = createConferenceApp({
    servers: [
      { url, username: process.env.ARI_USER ?? 'asterisk', password: process.env.ARI_PASSWORD ?? '' },
    ],
  });
  await app.start();
  installShutdownHandlers(app, { deadlineMs: 30_000 });
  console.log(`conference: serving Stasis(conference,<room>) on ${url}; Ctrl-C drains and stops`);
} else {
  await demo();
}

/** The application on the simulator's real wire server, with three simulated callers. */
async function demo(): Promise<void> {
  const sim = createSimulator();
  const wire = await startWireServer(sim, {
    users: [{ username: 'demo', password: 'demo' }],
    clock: sim.clock,
  });
  const { app, rooms } = createConferenceApp({
    servers: [{ url: wire.url, username: 'demo', password: 'demo' }],
    logger: { level: 'warn' },
  });
  await app.start();
  const shown = new Set([
    'BridgeCreated',
    'ChannelEnteredBridge',
    'BridgeVideoSourceChanged',
    'RecordingStarted',
    'RecordingFinished',
    'BridgeDestroyed',
  ]);
  const started = Date.now();
  sim.driver.onEvent((e) => {
    if (!shown.has(e.type)) return;
    const about = e as {
      channel?: { id: string };
      recording?: { name: string };
      bridge?: { video_source_id?: string };
    };
    const detail =
      e.type === 'BridgeVideoSourceChanged'
        ? (about.bridge?.video_source_id ?? 'talk detection')
        : (about.channel?.id ?? about.recording?.name ?? '');
    console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s  ${e.type} ${detail}`);
  });
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const say = (what: string) => console.log(`        ☎ ${what}`);

  console.log(`simulator on ${wire.url}; three callers dial room "standup"`);
  for (const caller of ['alice', 'bob', 'carol']) {
    sim.driver.placeCall({ app: 'conference', args: ['standup'], channelId: caller, from: caller });
    await wait(300);
  }
  await wait(6_000); // join prompts and entry tones
  say('bob talks');
  sim.driver.startTalking('bob');
  await wait(500);
  sim.driver.stopTalking('bob');
  say('alice (moderator) presses * to record');
  sim.driver.pressDigits('alice', '*');
  await wait(2_000);
  say('carol talks');
  sim.driver.startTalking('carol');
  await wait(500);
  sim.driver.stopTalking('carol');
  say("alice presses # (back to the server's talk detection)");
  sim.driver.pressDigits('alice', '#');
  await wait(1_000);
  console.log('        room:', JSON.stringify(rooms.list()[0]));
  say('everyone hangs up');
  for (const caller of ['alice', 'bob', 'carol']) sim.driver.hangup(caller);
  await wait(1_000);
  console.log('        counters:', JSON.stringify(app.counters()));
  await app.stop();
  await wire.close();
  sim.close();
}
