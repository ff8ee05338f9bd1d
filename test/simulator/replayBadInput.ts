import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { VirtualClock } from '@ringflow/client';
import { createSimulator, startWireServer } from '@ringflow/simulator';

/** The `Server` header (and HTML page signature) of the recorded server. */
export const RECORDED_SERVER_NAME = 'Asterisk/GIT-master-f0c1c1a7b7';

/** One line of `fixtures/bad-input-exchanges.jsonl` (see fixtures/README.md). */
export interface BadInputLine {
  readonly seq: number;
  readonly request: { method: string; path: string; contentType?: string; body?: string };
  readonly response: { status: number; body: string };
}

/** What the simulator answered to one recorded request. */
export interface BadInputOutcome {
  readonly line: BadInputLine;
  readonly status: number;
  readonly body: string;
}

export function loadBadInput(): BadInputLine[] {
  const text = readFileSync(new URL('./fixtures/bad-input-exchanges.jsonl', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BadInputLine);
}

function send(port: number, line: BadInputLine): Promise<{ status: number; body: string }> {
  const { method, path, contentType, body } = line.request;
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  };
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  if (payload) headers['Content-Length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Replays the recorded bad requests in order, over HTTP, against a fresh simulator behind its wire
 * server with the accounts of the recording (`demo:demo`, read/write; `viewer:viewer`, read-only)
 * and the shipped dialplan (which has the recording server's contexts).
 */
export async function replayBadInput(lines: readonly BadInputLine[]): Promise<BadInputOutcome[]> {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock });
  const wire = await startWireServer(sim, {
    // The recorded server's name, so that the HTML pages of the HTTP layer compare byte for byte.
    serverName: RECORDED_SERVER_NAME,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'viewer', password: 'viewer', readOnly: true },
    ],
    clock,
    port: 0,
  });
  const outcomes: BadInputOutcome[] = [];
  try {
    for (const line of lines) {
      const reply = await send(wire.port, line);
      outcomes.push({ line, ...reply });
    }
  } finally {
    await wire.close();
    sim.close();
  }
  return outcomes;
}

/** A short name for the kind of a difference: `GET 405→404 /channels/{x}/...`. */
export function differenceKind(outcome: BadInputOutcome): string {
  const { line, status } = outcome;
  const path = line.request.path.split('?')[0]!;
  const head = path.split('/').slice(2, 3).join('/');
  const bodyKind = line.request.body !== undefined ? ` body:${line.request.contentType ?? '-'}` : '';
  return `real ${line.response.status} sim ${status} ${line.request.method} /${head}${bodyKind}`;
}
