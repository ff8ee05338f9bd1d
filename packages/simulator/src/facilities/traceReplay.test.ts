import { readFileSync } from 'node:fs';
import type { DeviceState } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { SimError } from '../SimError.ts';
import { createServerFacilities } from './createServerFacilities.ts';

interface RestLine {
  kind: 'rest';
  seq: number;
  scenario: string;
  step: string | null;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  responseBody: unknown;
  bodySummarized: boolean;
}
interface EventLine {
  kind: 'event';
  seq: number;
  scenario: string;
  device_state: DeviceState;
}

const lines = readFileSync(new URL('./fixtures/facility-exchanges.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as RestLine | EventLine);

/** The facilities wired as the simulator core wires them, with the traced server's users. */
function world() {
  return createServerFacilities({
    users: [
      { name: 'demo', password: 'demo' },
      { name: 'viewer', password: 'viewer', readOnly: true },
    ],
  });
}

type World = ReturnType<typeof world>;
type Outcome =
  | { status: number; body: unknown }
  | { status: number; file: { contentType: string; data: Uint8Array } };

/** A minimal router standing in for the simulator core: path -> facility call -> status and body. */
function call(w: World, line: RestLine): Outcome {
  const segments = line.path
    .replace(/^\/ari\//, '')
    .split('/')
    .map((s) => decodeURIComponent(s));
  const q = line.query;
  const body = typeof line.body === 'string' ? JSON.parse(line.body) : (line.body ?? undefined);
  const route = `${line.method} ${segments.map((s, i) => (i === 0 || ['asterisk', 'stored', 'modules', 'logging', 'config', 'dynamic'].includes(s) ? s : '*')).join('/')}`;
  const [, b, c, d, e, f] = segments as [string, string, string, string, string, string];
  const ok = (value: unknown) => ({ status: value === undefined ? 204 : 200, body: value ?? null });
  try {
    switch (route) {
      case 'GET sounds':
        return ok(w.sounds.list({ lang: q.lang, format: q.format }));
      case 'GET sounds/*':
        return ok(w.sounds.get(b));
      case 'GET recordings/stored':
        return ok(w.recordings.list());
      case 'GET recordings/stored/*':
        return ok(w.recordings.get(c));
      case 'GET recordings/stored/*/*':
        return { status: 200, file: w.recordings.getFile(c) };
      case 'POST recordings/stored/*/*':
        return ok(w.recordings.copy(c, q.destinationRecordingName));
      case 'DELETE recordings/stored/*':
        return ok(w.recordings.delete(c));
      case 'GET deviceStates':
        return ok(w.deviceStates.list());
      case 'GET deviceStates/*':
        return ok(w.deviceStates.get(b));
      case 'PUT deviceStates/*':
        return ok(w.deviceStates.update(b, q.deviceState));
      case 'DELETE deviceStates/*':
        return ok(w.deviceStates.delete(b));
      case 'GET mailboxes':
        return ok(w.mailboxes.list());
      case 'GET mailboxes/*':
        return ok(w.mailboxes.get(b));
      case 'PUT mailboxes/*':
        return ok(w.mailboxes.update(b, q.oldMessages, q.newMessages));
      case 'DELETE mailboxes/*':
        return ok(w.mailboxes.delete(b));
      case 'GET asterisk/modules':
        return ok(w.modules.list());
      case 'GET asterisk/modules/*':
        return ok(w.modules.get(c));
      case 'POST asterisk/modules/*':
        return ok(w.modules.load(c));
      case 'DELETE asterisk/modules/*':
        return ok(w.modules.unload(c));
      case 'PUT asterisk/modules/*':
        return ok(w.modules.reload(c));
      case 'GET asterisk/logging':
        return ok(w.logChannels.list());
      case 'POST asterisk/logging/*':
        return ok(w.logChannels.add(c, q.configuration));
      case 'DELETE asterisk/logging/*':
        return ok(w.logChannels.delete(c));
      case 'PUT asterisk/logging/*/*':
        return ok(w.logChannels.rotate(c));
      case 'GET asterisk/config/dynamic/*/*/*':
        return ok(w.dynamicConfig.get(d, e, f));
      case 'PUT asterisk/config/dynamic/*/*/*':
        return ok(w.dynamicConfig.update(d, e, f, body));
      case 'DELETE asterisk/config/dynamic/*/*/*':
        return ok(w.dynamicConfig.delete(d, e, f));
      default:
        throw new Error(`replay: no facility serves ${route} (seq ${line.seq})`);
    }
  } catch (error) {
    if (error instanceof SimError) return { status: error.status, body: { message: error.message } };
    throw error;
  }
}

/** Recordings the core would have stored between the traced requests (live recordings finishing). */
const recordingsFinishedBefore: Record<number, [string, number][]> = {
  209: [['t1', 2880]],
  242: [
    ['t3', 0],
    ['t5', 0],
  ],
  962: [['br-rec', 0]],
};

/** `GET /recordings/stored/sub/t2`: a raw slash is a routing matter of the core (404 Resource not found). */
const routingOnly = new Set([217]);

describe('replay of the recorded real-server exchanges', () => {
  const w = world();
  const published: { scenario: string; state: DeviceState }[] = [];
  let scenario = '';
  w.deviceStates.onChange((state) => published.push({ scenario, state }));

  for (const line of lines) {
    if (line.kind !== 'rest' || routingOnly.has(line.seq)) continue;
    it(`#${line.seq} ${line.scenario} ${line.method} ${line.path}${line.step ? ` (${line.step})` : ''}`, () => {
      scenario = line.scenario;
      for (const [name, durationMs] of recordingsFinishedBefore[line.seq] ?? []) {
        w.recordings.write(name, 'wav', durationMs);
      }
      const outcome = call(w, line);
      expect(outcome.status).toBe(line.status);
      if ('file' in outcome) {
        const traced = line.responseBody as { byteLength: number; firstBytesHex: string };
        expect(outcome.file.contentType).toBe('audio/wav');
        expect(outcome.file.data.length).toBe(traced.byteLength);
        expect(
          Buffer.from(outcome.file.data.subarray(0, traced.firstBytesHex.length / 2)).toString('hex'),
        ).toBe(traced.firstBytesHex);
      } else if (line.bodySummarized && line.status === 200) {
        // Sound lists were summarized to their first entries: those must be served identically.
        const traced = line.responseBody as { first: { id: string }[] };
        const ours = outcome.body as { id: string }[];
        for (const sound of traced.first) expect(ours.find((s) => s.id === sound.id)).toEqual(sound);
      } else {
        expect(outcome.body).toEqual(line.responseBody);
      }
    });
  }

  it('published the traced DeviceStateChanged events, scenario by scenario', () => {
    const traced = lines.filter((l): l is EventLine => l.kind === 'event');
    for (const name of ['12-device-states', '13-mailboxes', '16-dynamic-config']) {
      expect(
        published.filter((p) => p.scenario === name).map((p) => p.state),
        name,
      ).toEqual(traced.filter((t) => t.scenario === name).map((t) => t.device_state));
    }
  });
});
