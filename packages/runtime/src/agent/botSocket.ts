import { type AddressInfo, type RawData, WebSocket, WebSocketServer } from 'ws';

/**
 * Opens a WebSocket to a bot with a subprotocol. Rejects when refused, unreachable, or when
 * `signal` aborts first (the step's connect limit). Both bot protocols connect with it.
 */
export function openBotSocket(
  url: string,
  subprotocol: string,
  options: { readonly signal: AbortSignal; readonly maxPayload?: number },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [subprotocol], {
      perMessageDeflate: false,
      ...(options.maxPayload !== undefined ? { maxPayload: options.maxPayload } : {}),
    });
    const abort = () => {
      ws.terminate();
      reject(options.signal.reason ?? new Error('aborted'));
    };
    if (options.signal.aborted) return abort();
    options.signal.addEventListener('abort', abort, { once: true });
    ws.once('error', (error) => {
      options.signal.removeEventListener('abort', abort);
      reject(error);
    });
    ws.once('open', () => {
      options.signal.removeEventListener('abort', abort);
      ws.on('error', () => ws.terminate());
      resolve(ws);
    });
  });
}

/** A bot served on a WebSocket port: its address, and how to stop it. */
export interface ServedBot {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves bot conversations on a WebSocket port, one per connection that offers `subprotocol`
 * (others are refused). Binds `host` (default 127.0.0.1), port 0 picks a free one.
 */
export async function serveBotSockets(
  subprotocol: string,
  options: {
    readonly port?: number;
    readonly host?: string;
    readonly path?: string;
    readonly maxPayload?: number;
  },
  onConnection: (ws: WebSocket) => void,
): Promise<ServedBot> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/';
  const wss = new WebSocketServer({
    host,
    port: options.port ?? 0,
    path,
    perMessageDeflate: false,
    ...(options.maxPayload !== undefined ? { maxPayload: options.maxPayload } : {}),
    handleProtocols: (offered) => (offered.has(subprotocol) ? subprotocol : false),
  });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('connection', (ws) => {
    ws.on('error', () => ws.terminate());
    onConnection(ws);
  });
  const address = wss.address() as AddressInfo;
  return {
    url: `ws://${host}:${address.port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** The bytes of a `ws` message as one Uint8Array. */
export function bytesOf(data: RawData): Uint8Array {
  const buffer = Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.from(data as ArrayBuffer);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
