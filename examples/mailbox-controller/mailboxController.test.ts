import { createEventStream, createRestClient, type StreamEvent, VirtualClock } from '@ringflow/client';
import { inProcessEventTransport, inProcessRestTransport } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { expect, it } from 'vitest';
import { startMailboxController } from './mailboxController.ts';

it('counts voicemails from user events into the mailbox, marks them listened, and drives a DND device', async () => {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock });
  const server = { url: 'http://simulator/ari', username: 'u', password: 'p' };
  const client = createRestClient({ ...server, clock, transport: inProcessRestTransport(sim) });
  const events = createEventStream({
    ...server,
    apps: ['ivr'],
    clock,
    transport: inProcessEventTransport(sim),
    pingIntervalMs: 0,
  });
  const seen: StreamEvent[] = [];
  events.events$.subscribe((e) => seen.push(e));
  const controller = await startMailboxController({ client, events, app: 'ivr' });

  for (const mailbox of ['sales', 'sales', 'support'])
    await client.events.userEvent({ eventName: 'VoicemailLeft', application: 'ivr', variables: { mailbox } });
  await client.events.userEvent({
    eventName: 'SomethingElse',
    application: 'ivr',
    variables: { mailbox: 'sales' },
  });
  await clock.advance(10);
  await controller.settled();
  await controller.listened('sales');
  expect(await client.mailboxes.get({ mailboxName: 'sales' })).toMatchObject({
    new_messages: 1,
    old_messages: 1,
  });
  expect(await client.mailboxes.get({ mailboxName: 'support' })).toMatchObject({
    new_messages: 1,
    old_messages: 0,
  });

  await client.applications.subscribe({
    applicationName: 'ivr',
    eventSource: 'deviceState:Stasis:dnd-alice',
  });
  await controller.setDoNotDisturb('alice', true);
  await clock.advance(10);
  expect(await client.deviceStates.get({ deviceName: 'Stasis:dnd-alice' })).toMatchObject({ state: 'BUSY' });
  expect(seen.filter((e) => e.type === 'DeviceStateChanged').at(-1)).toMatchObject({
    device_state: { name: 'Stasis:dnd-alice', state: 'BUSY' },
  });
  controller.stop();
  await events.close();
  sim.close();
});
