import { VirtualClock } from '@ringflow/client';
import { createFlowCallMachine, formatDiagnostic, parseFlow } from '@ringflow/dsl';
import {
  type Application,
  Campaign,
  type Contact,
  createApplication,
  inProcessEventTransport,
  inProcessRestTransport,
  MemoryCampaignJournal,
  MetricsRegistry,
} from '@ringflow/runtime';
import { createSimulator, type FarEndConfig, type Simulator } from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';

const NOTIFY = `name: notify
start: talk
states:
  talk:
    steps:
      - wait: { duration: 20s }
    next: said
  said:
    final: true
`;

let app: Application | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await app?.stop();
  sim?.close();
  app = undefined;
  sim = undefined;
});

/** The value of one series in the Prometheus text (`undefined` when it is not there). */
function series(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe("a campaign's metrics on the application's /metrics", () => {
  it('counts contacts done by final outcome, attempts by outcome, and the calls in flight', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 30, 10));
    const contacts: Contact[] = [];
    const phones: Record<string, FarEndConfig> = {};
    for (let i = 0; i < 10; i++) {
      contacts.push({ id: `c${i}`, endpoint: `PJSIP/c${i}` });
      // c0 and c1 busy twice then answer; c2 never answers; the rest answer.
      phones[`PJSIP/c${i}`] =
        i < 2 ? ['busy', 'busy', { answerAfterMs: 1000 }] : i === 2 ? 'noAnswer' : { answerAfterMs: 1000 };
    }
    const parsed = parseFlow(NOTIFY, 'flows/notify.yaml');
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    sim = createSimulator({ clock, endpoints: phones });
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
      call: createFlowCallMachine(parsed.flow),
      clock,
    });
    await app.start();
    const campaign = new Campaign({
      dialler: app,
      contacts,
      pace: { perSecond: 1, atOnce: 3 },
      retry: { busy: { times: 2, afterMs: 60_000 } },
      journal: new MemoryCampaignJournal(),
      originate: { app: 'notify', timeout: 10 },
      clock,
      metrics: { registry: app.metrics.registry, campaign: 'renewals' },
    });
    let done = false;
    const finished = campaign.run().then((summary) => {
      done = true;
      return summary;
    });
    const inFlight: number[] = [];
    for (let elapsed = 0; !done && elapsed < 3_600_000; elapsed += 1000) {
      await clock.advance(1000);
      inFlight.push(
        series(app.metrics.toPrometheus(), 'ringflow_campaign_calls_in_flight', 'campaign="renewals"') ?? -1,
      );
    }
    const summary = await finished;
    expect(summary.outcomes).toEqual({ answered: 9, noAnswer: 1 });
    // In flight: up to the pace's 3 at once while it ran, none at the end.
    expect(Math.max(...inFlight)).toBe(3);
    expect(inFlight.at(-1)).toBe(0);
    const text = app.metrics.toPrometheus();
    expect(text).toContain('# TYPE ringflow_campaign_contacts_total counter');
    const contactsDone = (outcome: string) =>
      series(text, 'ringflow_campaign_contacts_total', `campaign="renewals",outcome="${outcome}"`);
    expect(contactsDone('answered')).toBe(9);
    expect(contactsDone('noAnswer')).toBe(1);
    // A busy attempt with a retry ahead is no contact done, but it is an attempt.
    expect(contactsDone('busy')).toBeUndefined();
    const attempts = (outcome: string) =>
      series(text, 'ringflow_campaign_attempts_total', `campaign="renewals",outcome="${outcome}"`);
    expect(attempts('busy')).toBe(4);
    expect(attempts('answered')).toBe(9);
    expect(attempts('noAnswer')).toBe(1);
    expect(summary.callsPlaced).toBe(14);
  });

  it('two campaigns on one registry share the metrics, told apart by their label; a nameless one is refused', () => {
    const clock = new VirtualClock(0);
    const registry = new MetricsRegistry();
    const options = {
      dialler: { originate: () => Promise.reject(new Error('not here')) },
      contacts: [],
      pace: { perSecond: 1, atOnce: 1 },
      journal: new MemoryCampaignJournal(),
      clock,
    };
    new Campaign({ ...options, metrics: { registry, campaign: 'a' } });
    new Campaign({ ...options, metrics: { registry, campaign: 'b' } });
    const text = registry.toPrometheus();
    expect(text).toContain('ringflow_campaign_calls_in_flight{campaign="a"} 0');
    expect(text).toContain('ringflow_campaign_calls_in_flight{campaign="b"} 0');
    expect(() => new Campaign({ ...options, metrics: { registry, campaign: '' } })).toThrow(
      'metrics.campaign: give the campaign a name',
    );
  });
});
