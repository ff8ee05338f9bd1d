import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@ringflow/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../packages/cli/src/ExitCode.ts';
import { main } from '../../packages/cli/src/main.ts';
import { captureIo } from '../../packages/cli/src/test-support/captureIo.ts';
import { ringflow } from '../wire/spawnRingflow.ts';

/** A message flow: once the contact answers, a second of "message", then its outcome. */
const FLOW = `name: remind
start: say
inputs:
  name: { type: string, default: customer }
states:
  say:
    steps:
      - wait: { duration: 1s }
    next: done
  done:
    final: true
    output:
      outcome: { expr: "'told ' + input.name" }
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringflow-campaign-'));
  await writeFile(join(dir, 'remind.yaml'), FLOW);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ringflow campaign', () => {
  it('dials a contact list on `ringflow simulator`: answered, busy then retried, no answer; results written as it goes', async () => {
    const sim = ringflow([
      'simulator',
      '--port',
      '0',
      '--endpoint',
      'PJSIP/5550101=answer:1',
      '--endpoint',
      'PJSIP/5550102=busy,answer:1',
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
      await writeFile(contacts, 'id,number,name\nann,5550101,Ann\nbob,5550102,"Bob, Jr."\ncy,5550103,Cy\n');
      const results = join(dir, 'results.jsonl');
      const campaign = ringflow([
        'campaign',
        join(dir, 'remind.yaml'),
        '--contacts',
        contacts,
        '--results',
        results,
        '--server',
        server,
        '--user',
        'demo:demo',
        '--endpoint',
        'PJSIP/{number}',
        '--rate',
        '5',
        '--ring',
        '2s',
        '--retry',
        'busy=1x1s',
        '--format',
        'text',
      ]);
      expect(await campaign.exit, campaign.output().stderr).toBe(0);
      const lines = (await readFile(results, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const ends = lines.filter((l) => l.type === 'ended').map((l) => [l.contact, l.outcome]);
      expect(ends).toEqual(
        expect.arrayContaining([
          ['ann', 'told Ann'],
          ['bob', 'busy'],
          ['bob', 'told Bob, Jr.'],
          ['cy', 'noAnswer'],
        ]),
      );
      expect(ends).toHaveLength(4);
      const { stdout } = campaign.output();
      expect(stdout).toMatch(/bob {2}■ busy \(cause 17\), again at/);
      expect(stdout).toMatch(/Summary: 3 of 3 contacts done \(.*\), 4 calls placed/);

      // Run again on the same results: everyone is done, nobody is called.
      const again = ringflow([
        'campaign',
        join(dir, 'remind.yaml'),
        '--contacts',
        contacts,
        '--results',
        results,
        '--server',
        server,
        '--user',
        'demo:demo',
        '--endpoint',
        'PJSIP/{number}',
        '--format',
        'text',
      ]);
      expect(await again.exit).toBe(0);
      expect(again.output().stdout).toMatch(/Summary: 3 of 3 contacts done .*, 0 calls placed/);
    } finally {
      sim.child.kill('SIGTERM');
      await sim.exit;
    }
  });

  it('tells every problem of the contact list with its line before dialling anyone', async () => {
    const contacts = join(dir, 'bad.csv');
    await writeFile(
      contacts,
      'id,number,nmae,timezone\na,5550101,Ann,Europe/Paris\na,5550102,Bob,Mars/Olympus\nc,,Cy,\n',
    );
    const c = captureIo();
    const code = await main(
      [
        'campaign',
        join(dir, 'remind.yaml'),
        '--contacts',
        contacts,
        '--server',
        'http://127.0.0.1:9',
        '--user',
        'u:p',
        '--endpoint',
        'PJSIP/{number}',
      ],
      c.io,
    );
    expect(code).toBe(ExitCode.FAILURE);
    expect(c.err()).toContain('bad.csv:2: column "nmae" is neither a contact field');
    expect(c.err()).toContain('bad.csv:3: timezone "Mars/Olympus" is not a time zone name');
    expect(c.err()).toContain('bad.csv:4: no endpoint and no number');
    expect(c.err()).toMatch(/the contact list has \d+ problem/);
  });

  it('names a bad option', async () => {
    const c = captureIo();
    const flow = join(dir, 'remind.yaml');
    const base = ['campaign', flow, '--contacts', 'x.csv', '--server', 'http://127.0.0.1:9', '--user', 'u:p'];
    expect(await main([...base, '--retry', 'busy=three'], c.io)).toBe(ExitCode.USAGE);
    expect(c.err()).toContain('--retry: expected outcome=<times>x<wait> such as busy=3x10m');
    expect(await main([...base, '--window', 'weekdays'], c.io)).toBe(ExitCode.USAGE);
    expect(c.err()).toContain('--window: expected days and hours such as mon-fri,09:00-20:00');
    expect(await main([...base, '--rate', '0'], c.io)).toBe(ExitCode.USAGE);
    expect(c.err()).toContain("--rate: expected a number above 0, got '0'");
  });
});
