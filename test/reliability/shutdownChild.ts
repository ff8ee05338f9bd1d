/**
 * A small telephony service for the shutdown test, run as its own process: the reliability
 * dialplan on a simulator (real clock), an application whose calls wait for the caller, and the
 * runtime's signal handling. Calls with the argument `polite` hang up when told the application is
 * draining; the others stay until the deadline. It prints `ready` once its calls are up, and on
 * exit one JSON line with what the simulator saw (channels left, hang-up causes).
 */
import { systemClock } from '@ringflow/client';
import {
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
  installShutdownHandlers,
} from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { setup } from 'xstate';

const deadlineMs = Number(process.argv[2] ?? 400);
const sim = createSimulator({
  clock: systemClock,
  dialplan: {
    file: 'shutdown.conf',
    text: ['[from-callers]', 'exten => _X!,1,Stasis(svc,${EXTEN})', ' same => n,Hangup()', ''].join('\n'),
  },
});

const waiting = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'talking' },
    },
    talking: {
      on: {
        'call.draining': { guard: ({ context }) => context.call.args[0] === '1', target: 'leaving' },
      },
    },
    leaving: { invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }), onDone: 'done' } },
    done: { type: 'final' },
  },
});

const causes: Record<string, number> = {};
sim.driver.onEvent((e) => {
  if (e.type === 'ChannelDestroyed') {
    const id = (e as unknown as { channel: { id: string }; cause: number }).channel.id;
    causes[id] = (e as unknown as { cause: number }).cause;
  }
});

const app = createApplication({
  servers: [
    {
      name: 'sim',
      url: 'http://sim/ari',
      username: 'svc',
      password: 'svc-password',
      restTransport: inProcessRestTransport(sim),
      eventTransport: inProcessEventTransport(sim),
      eventStream: { pingIntervalMs: 0 },
    },
  ],
  apps: ['svc'],
  call: waiting,
  logger: pino({ level: 'info' }),
});

process.on('exit', () => {
  process.stdout.write(`${JSON.stringify({ final: true, channelsLeft: sim.channelCount, causes })}\n`);
});

await app.start();
// The simulator stands for the server, which carries out a hang-up after its 204 (as a real
// server does: the reply comes first): before the process ends, it gets two turns of the event
// loop to finish the hang-ups it was asked for, so the exit line counts what the server would keep.
installShutdownHandlers(app, {
  deadlineMs,
  exit: (code) => setTimeout(() => setTimeout(() => process.exit(code), 0), 0),
});
// Two polite callers (dialled 1), two that stay (dialled 2).
for (const [id, to] of [
  ['polite-a', '1'],
  ['polite-b', '1'],
  ['stays-a', '2'],
  ['stays-b', '2'],
] as const) {
  sim.driver.placeCall({ channelId: id, to });
}
const ready = () =>
  app.activeCalls().length === 4 &&
  app.activeCalls().every((s) => s.machine?.getSnapshot().value === 'talking');
// Bounded: a child that never gets there says so and exits (the parent test fails on it).
const deadline = Date.now() + 30_000;
while (!ready()) {
  if (Date.now() > deadline) {
    process.stderr.write(`not ready after 30 s: ${app.activeCalls().length} calls\n`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.stdout.write('ready\n');
// Keep the process alive until a signal ends it (the simulator holds no timers while calls wait).
setInterval(() => {}, 60_000);
