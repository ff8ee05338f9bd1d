import { createEventStream, createRestClient, VirtualClock } from '@ringflow/client';
import { inProcessEventTransport, inProcessRestTransport } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { expect, it } from 'vitest';
import { keywordReplies, startAutoResponder } from './smsAutoResponder.ts';

it('answers each inbound text by keyword, from the number it was sent to, and honours STOP', async () => {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock, endpoints: ['PJSIP/alice', 'PJSIP/shop'] });
  const server = { url: 'http://simulator/ari', username: 'u', password: 'p' };
  const client = createRestClient({ ...server, clock, transport: inProcessRestTransport(sim) });
  const events = createEventStream({
    ...server,
    apps: ['sms'],
    clock,
    transport: inProcessEventTransport(sim),
    pingIntervalMs: 0,
  });
  const stop = await startAutoResponder({
    client,
    events,
    app: 'sms',
    technology: 'PJSIP',
    reply: keywordReplies(),
  });

  for (const body of ['hours?', 'Hello there', 'STOP', 'hours']) {
    sim.driver.sendText({ endpoint: 'PJSIP/alice', to: 'pjsip:shop', body });
    await clock.advance(100);
  }
  const sent = sim.driver.outbound.filter((o) => o.kind === 'message').map((o) => o.detail);
  expect(sent).toEqual([
    expect.objectContaining({
      to: 'pjsip:alice',
      from: 'pjsip:shop',
      body: expect.stringMatching(/^We are open Mon-Fri/),
    }),
    expect.objectContaining({ body: expect.stringMatching(/^Thanks for your message/) }),
    expect.objectContaining({ body: expect.stringMatching(/^You will get no more messages/) }),
  ]);
  stop();
  await events.close();
  sim.close();
});
