import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, formatDiagnostic, parseFlow } from '@ringflow/dsl';
import {
  type Application,
  Campaign,
  type Contact,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
  type JournalEntry,
  MemoryCampaignJournal,
  nextOpening,
} from '@ringflow/runtime';
import { createSimulator, type FarEndConfig, type Simulator } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Issue 31 point 4: a campaign of 50 contacts in virtual time, its pace and retries respected,
 * and resumed after a stop without calling anyone twice.
 */
const NOTIFY = `name: notify
start: talk
inputs:
  kind: { type: string, default: person }
states:
  talk:
    steps:
      - wait: { duration: 5s }
    next: said
  # A final state with an output: the runtime hangs the call up, the campaign reads the outcome.
  said:
    final: true
    output:
      outcome: { expr: "input.kind == 'machine' ? 'machine' : 'answered'" }
`;

let app: Application | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await app?.stop();
  sim?.close();
  app = undefined;
  sim = undefined;
});

/** 50 contacts: #13 unreachable, every 7th never answering, every 5th busy once then answering, every 11th a machine. */
function contactsAndPhones() {
  const contacts: Contact[] = [];
  const phones: Record<string, FarEndConfig> = {};
  for (let i = 0; i < 50; i++) {
    const endpoint = `PJSIP/c${i}`;
    const machine = i % 11 === 3;
    contacts.push({ id: `c${i}`, endpoint, inputs: { kind: machine ? 'machine' : 'person' } });
    phones[endpoint] =
      i === 13
        ? 'unreachable'
        : i % 7 === 6
          ? 'noAnswer'
          : i % 5 === 4
            ? ['busy', { answerAfterMs: 2000 }]
            : { answerAfterMs: 2000 };
  }
  return { contacts, phones };
}

function start(clock: VirtualClock, phones: Record<string, FarEndConfig>, contacts: readonly Contact[]) {
  const parsed = parseFlow(NOTIFY, 'flows/notify.yaml');
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  sim = createSimulator({ clock, endpoints: phones });
  const byId = new Map(contacts.map((c) => [c.id, c]));
  app = createApplication({
    servers: [
      {
        url: 'http://simulator/ari',
        username: 'u',
        password: 'p',
        restTransport: inProcessRestTransport(sim),
        eventTransport: inProcessEventTransport(sim),
        eventStream: { pingIntervalMs: 0 },
      },
    ],
    apps: ['notify'],
    // Each call carries its contact's id as its Stasis argument: the flow's inputs are the contact's.
    call: createFlowCallMachine(parsed.flow, {
      inputs: (call) => byId.get(String(call.start.args[0]))?.inputs ?? {},
    }),
    clock,
  });
  return app;
}

/** Runs `campaign` while the virtual clock advances. */
async function runOn(
  clock: VirtualClock,
  campaign: Campaign,
  options: { stopAfterMs?: number; stepMs?: number } = {},
) {
  const { stopAfterMs, stepMs = 1000 } = options;
  let done = false;
  const finished = campaign.run().then((summary) => {
    done = true;
    return summary;
  });
  for (let elapsed = 0; !done && elapsed < 24 * 3_600_000; elapsed += stepMs) {
    if (stopAfterMs !== undefined && elapsed === stopAfterMs) campaign.stop();
    await clock.advance(stepMs);
  }
  expect(done, 'the campaign finished within a day').toBe(true);
  return finished;
}

const dialled = (entries: readonly JournalEntry[]) => entries.filter((e) => e.type === 'dialling');

describe('an outbound campaign in virtual time', () => {
  it('dials 50 contacts at its pace, never more at once than allowed, retrying by outcome after the delays', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 30, 10)); // a Monday, 10:00 UTC
    const { contacts, phones } = contactsAndPhones();
    const application = start(clock, phones, contacts);
    await application.start();
    const journal = new MemoryCampaignJournal();
    const campaign = new Campaign({
      dialler: application,
      contacts,
      pace: { perSecond: 2, atOnce: 5 },
      retry: {
        busy: { times: 2, afterMs: 600_000 },
        noAnswer: { times: 1, afterMs: 1_800_000 },
        machine: { times: 1, afterMs: 3_600_000 },
      },
      journal,
      originate: { app: 'notify', timeout: 20 },
      clock,
    });
    const summary = await runOn(clock, campaign);

    const entries = journal.entries();
    // The pace: at least 500 ms between two calls placed, and never more than 5 calls up at once.
    const placedAt = dialled(entries).map((e) => e.at);
    for (let i = 1; i < placedAt.length; i++)
      expect(placedAt[i]! - placedAt[i - 1]!).toBeGreaterThanOrEqual(500);
    let up = 0;
    for (const e of entries) {
      up += e.type === 'dialling' ? 1 : -1;
      expect(up).toBeLessThanOrEqual(5);
    }
    // Retries: each after its delay, as many as the rules allow.
    const attemptsOf = (id: string) => entries.filter((e) => e.contact === id && e.type === 'ended');
    const busyOnce = attemptsOf('c4');
    expect(busyOnce.map((e) => e.type === 'ended' && e.outcome)).toEqual(['busy', 'answered']);
    const [busyEnd] = busyOnce;
    const retried = dialled(entries).find((e) => e.contact === 'c4' && e.attempt === 2)!;
    expect(retried.at - busyEnd!.at).toBeGreaterThanOrEqual(600_000);
    expect(attemptsOf('c6').map((e) => e.type === 'ended' && e.outcome)).toEqual(['noAnswer', 'noAnswer']);
    expect(attemptsOf('c3').map((e) => e.type === 'ended' && e.outcome)).toEqual(['machine', 'machine']);
    expect(attemptsOf('c13').map((e) => e.type === 'ended' && e.outcome)).toEqual(['failed']);
    // Every contact done; the final outcomes add up.
    expect(summary).toMatchObject({ contacts: 50, done: 50, waiting: 0, dialling: 0 });
    // 6 never answer (#13 is unreachable), 5 machines (#14 busy first), 9 busy once.
    expect(summary.outcomes).toEqual({ answered: 38, noAnswer: 6, machine: 5, failed: 1 });
    expect(summary.callsPlaced).toBe(50 + 9 + 6 + 5); // busy retried once each, no answer once, machines once
    expect(application.counters().activeSessions).toBe(0);
  });

  it('resumed after a stop, calls nobody twice: the done stay done, a call cut off by a crash is unknown', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 30, 10));
    const { contacts, phones } = contactsAndPhones();
    const application = start(clock, phones, contacts);
    await application.start();
    const options = {
      dialler: application,
      contacts,
      pace: { perSecond: 1, atOnce: 3 },
      retry: { busy: { times: 1, afterMs: 60_000 } },
      originate: { app: 'notify', timeout: 20 },
      clock,
    };
    const journal = new MemoryCampaignJournal();
    const first = await runOn(clock, new Campaign({ ...options, journal }), { stopAfterMs: 20_000 });
    expect(first.done).toBeGreaterThan(5);
    expect(first.waiting).toBeGreaterThan(0);
    // A crash after the next contact's attempt was written, before its call's end was.
    const next = contacts.find((c) => !journal.entries().some((e) => e.contact === c.id))!;
    journal.append({ type: 'dialling', contact: next.id, attempt: 1, at: clock.now() });
    const second = await runOn(clock, new Campaign({ ...options, journal }));
    expect(second).toMatchObject({ contacts: 50, done: 50 });
    const entries = journal.entries();
    for (const contact of contacts) {
      const attempts = dialled(entries).filter((e) => e.contact === contact.id);
      const busy = entries.filter(
        (e) => e.contact === contact.id && e.type === 'ended' && e.outcome === 'busy',
      );
      // Once, or once more after a busy line: never twice by accident.
      expect(attempts.length, contact.id).toBe(1 + busy.length);
    }
    expect(entries.filter((e) => e.contact === next.id && e.type === 'ended')).toMatchObject([
      { outcome: 'unknown', final: true },
    ]);
  });

  it('waits for the calling window in each contact’s time zone', async () => {
    // Monday 06:00 UTC: 07:00 in Paris, 01:00 in Chicago; the window opens at 09:00 local.
    const clock = new VirtualClock(Date.UTC(2026, 10, 30, 6));
    const contacts: Contact[] = [
      { id: 'paris', endpoint: 'PJSIP/paris', timezone: 'Europe/Paris' },
      { id: 'chicago', endpoint: 'PJSIP/chicago', timezone: 'America/Chicago' },
    ];
    const application = start(clock, { 'PJSIP/paris': 'answer', 'PJSIP/chicago': 'answer' }, contacts);
    await application.start();
    const journal = new MemoryCampaignJournal();
    const window = { days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, from: '09:00', to: '17:00' };
    await runOn(
      clock,
      new Campaign({
        dialler: application,
        contacts,
        pace: { perSecond: 1, atOnce: 2 },
        window: { ...window, days: [...window.days] },
        journal,
        originate: { app: 'notify' },
        clock,
      }),
      { stepMs: 60_000 },
    );
    const at = Object.fromEntries(
      dialled(journal.entries()).map((e) => [e.contact, new Date(e.at).toISOString()]),
    );
    expect(at).toEqual({ paris: '2026-11-30T08:00:00.000Z', chicago: '2026-11-30T15:00:00.000Z' });
    // Friday 17:00 in Paris: the next opening is Monday 09:00.
    expect(
      new Date(
        nextOpening({ ...window, days: [...window.days] }, Date.UTC(2026, 11, 4, 16), 'Europe/Paris')!,
      ).toISOString(),
    ).toBe('2026-12-07T08:00:00.000Z');
  });
});
