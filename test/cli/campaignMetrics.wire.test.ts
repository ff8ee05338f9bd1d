import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@ringflow/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ringflow } from '../wire/spawnRingflow.ts';

/** Once the contact answers, a second of "message", then its outcome. */
const FLOW = `name: remind
start: say
states:
  say:
    steps:
      - wait: { duration: 1s }
    next: done
  done:
    final: true
    output:
      outcome: told
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringflow-campaign-metrics-'));
  await writeFile(join(dir, 'remind.yaml'), FLOW);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The value of one series in the Prometheus text (`undefined` when it is not there). */
function series(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('ringflow campaign --http', () => {
  it('serves the campaign figures at /metrics while it runs: contacts done by outcome, calls in flight', async () => {
    const sim = ringflow([
      'simulator',
      '--port',
      '0',
      '--endpoint',
      'PJSIP/5550101=answer:1',
      '--endpoint',
      'PJSIP/5550103=noAnswer',
    ]);
    try {
      const server = await until(
        'the simulator',
        () => /listening on (http:\/\/\S+)\/ari/.exec(sim.output().stdout + sim.output().stderr)?.[1],
        { timeoutMs: 20_000 },
      );
      const contacts = join(dir, 'contacts.csv');
      await writeFile(contacts, 'id,number\nann,5550101\ncy,5550103\n');
      const campaign = ringflow([
        'campaign',
        join(dir, 'remind.yaml'),
        '--contacts',
        contacts,
        '--results',
        join(dir, 'results.jsonl'),
        '--server',
        server,
        '--user',
        'demo:demo',
        '--endpoint',
        'PJSIP/{number}',
        '--rate',
        '5',
        // Cy's phone rings this long: Ann is done well before, while Cy's call is still up.
        '--ring',
        '15s',
        '--http',
        '0',
        '--format',
        'text',
      ]);
      const metrics = await until(
        'the metrics address',
        () => /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(campaign.output().stderr)?.[1],
        { timeoutMs: 20_000 },
      );
      // Ann answered and heard the message; Cy's phone still rings.
      const text = await until(
        "Ann's contact done",
        async () => {
          const body = await (await fetch(metrics)).text();
          return series(body, 'ringflow_campaign_contacts_total', 'campaign="remind",outcome="told"') === 1
            ? body
            : undefined;
        },
        { timeoutMs: 14_000 },
      );
      expect(series(text, 'ringflow_campaign_calls_in_flight', 'campaign="remind"')).toBe(1);
      expect(series(text, 'ringflow_campaign_attempts_total', 'campaign="remind",outcome="told"')).toBe(1);
      expect(text).toContain('# TYPE ringflow_campaign_contacts_total counter');
      // The runtime's own metrics are there too.
      expect(text).toContain('ringflow_calls_started_total');
      expect(await campaign.exit, campaign.output().stderr).toBe(0);
      expect(campaign.output().stdout).toMatch(/Summary: 2 of 2 contacts done \(1 told, 1 noAnswer\)/);
    } finally {
      sim.child.kill('SIGTERM');
      await sim.exit;
    }
  });
});
