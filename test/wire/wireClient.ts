import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';

export const DEMO = `Basic ${Buffer.from('demo:demo').toString('base64')}`;
export const VIEWER = `Basic ${Buffer.from('viewer:viewer').toString('base64')}`;
export const users = [
  { username: 'demo', password: 'demo' },
  { username: 'viewer', password: 'viewer', readOnly: true },
];

/** A WebSocket client that queues what it receives, for tests to await one message at a time. */
export class EventClient {
  readonly messages: Record<string, unknown>[] = [];
  private waiters: (() => void)[] = [];
  closed?: { code: number; reason: string };

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as Record<string, unknown>);
      for (const wake of this.waiters.splice(0)) wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<EventClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const client = new EventClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`handshake answered ${res.statusCode}`)),
      );
    });
  }

  /** Resolves with the next message not yet taken (in arrival order). */
  async next(): Promise<Record<string, unknown>> {
    while (this.messages.length === 0) {
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for a message`);
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
    return this.messages.shift()!;
  }

  /** Resolves when the server closed the socket. */
  async closedByServer(): Promise<{ code: number; reason: string }> {
    while (!this.closed) await new Promise<void>((wake) => this.waiters.push(wake));
    return this.closed;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** Attempts a handshake that should be refused; resolves with the HTTP answer. */
export function refusedHandshake(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      reject(new Error('the handshake was accepted'));
    });
    ws.once('error', () => {});
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
  });
}
