import { WebSocket } from 'ws';
import { type MediaConnection, webSocketMediaConnection } from './MediaConnection.ts';
import { MAX_MEDIA_MESSAGE_BYTES } from './mediaLimits.ts';
import { MediaSocket, type MediaSocketOptions } from './MediaSocket.ts';

/** Where the server takes incoming media connections: `/media/<id>` at the HTTP root, not under `/ari`. */
export const MEDIA_PATH_PREFIX = '/media/';

/**
 * The URL to connect in to an external media channel made with `connection_type=server`, from
 * the ARI URL and the reply's `channelvars.MEDIA_WEBSOCKET_CONNECTION_ID`.
 *
 * @example
 * mediaSocketUrl('http://127.0.0.1:8088/ari', '4fb2058c-ed00-4706-b5d2-fff90146ddaf');
 * // 'ws://127.0.0.1:8088/media/4fb2058c-ed00-4706-b5d2-fff90146ddaf'
 */
export function mediaSocketUrl(ariUrl: string, connectionId: string): string {
  let url: URL;
  try {
    url = new URL(ariUrl);
  } catch {
    throw new TypeError(`mediaSocketUrl: '${ariUrl}' is not a URL (expected http://host:8088/ari)`);
  }
  if (connectionId === '') throw new TypeError('mediaSocketUrl: the connection id is empty');
  const scheme = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  return `${scheme}//${url.host}${MEDIA_PATH_PREFIX}${encodeURIComponent(connectionId)}`;
}

export interface ConnectMediaSocketOptions extends MediaSocketOptions {
  /** `ws://host:8088/media/<connection id>` ({@link mediaSocketUrl}). */
  readonly url: string;
  /** Handshake time limit (ms, real time). Default 5000. */
  readonly handshakeTimeoutMs?: number;
}

/**
 * The application connects in to an external media channel (`connection_type=server`): opens
 * the server's media WebSocket (subprotocol `media`, no credentials: the connection id is the
 * only key). Rejects with the HTTP status when refused (404: unknown or expired id; 409: a
 * socket is already connected).
 *
 * @example
 * const channel = await client.channels.externalMedia({ app: 'bot', transport: 'websocket',
 *   encapsulation: 'none', connection_type: 'server', format: 'slin16' });
 * const id = String(channel.channelvars?.MEDIA_WEBSOCKET_CONNECTION_ID);
 * const socket = await connectMediaSocket({ url: mediaSocketUrl('http://127.0.0.1:8088/ari', id) });
 * await socket.started;
 */
export async function connectMediaSocket(options: ConnectMediaSocketOptions): Promise<MediaSocket> {
  return new MediaSocket(await openMediaConnection(options), options);
}

/**
 * Opens the server's media WebSocket as a plain {@link MediaConnection}, for code that speaks
 * the protocol itself: messages that arrive before a handler is attached (MEDIA_START comes at
 * once) are kept and handed to the first `onText` / `onBinary` handler. Rejects as
 * {@link connectMediaSocket} does.
 */
export function openMediaConnection(options: {
  readonly url: string;
  readonly handshakeTimeoutMs?: number;
}): Promise<MediaConnection> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(options.url, ['media'], {
      perMessageDeflate: false,
      maxPayload: MAX_MEDIA_MESSAGE_BYTES,
      handshakeTimeout: options.handshakeTimeoutMs ?? 5000,
    });
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    ws.once('unexpected-response', (_request, response) => {
      const status = response.statusCode;
      fail(
        new Error(`media socket ${options.url}: refused with HTTP ${status ?? '?'}${refusalHint(status)}`),
      );
      ws.terminate();
    });
    ws.on('error', (error) => fail(new Error(`media socket ${options.url}: ${error.message}`)));
    ws.once('open', () => {
      settled = true;
      // Wrapped in the open handler: MEDIA_START, the server's first message, comes after it.
      resolve(keepingEarlyMessages(webSocketMediaConnection(ws)));
    });
  });
}

/** A connection that holds text and binary messages until the first handler of each kind. */
function keepingEarlyMessages(inner: MediaConnection): MediaConnection {
  const early: { texts: string[] | undefined; binaries: Uint8Array[] | undefined } = {
    texts: [],
    binaries: [],
  };
  const textHandlers: ((text: string) => void)[] = [];
  const binaryHandlers: ((data: Uint8Array) => void)[] = [];
  inner.onText((text) => {
    if (early.texts) early.texts.push(text);
    else for (const handler of textHandlers) handler(text);
  });
  inner.onBinary((data) => {
    if (early.binaries) early.binaries.push(data);
    else for (const handler of binaryHandlers) handler(data);
  });
  return {
    get open() {
      return inner.open;
    },
    sendText: (text) => inner.sendText(text),
    sendBinary: (data) => inner.sendBinary(data),
    close: (code) => inner.close(code),
    onClose: (handler) => inner.onClose(handler),
    onText(handler) {
      textHandlers.push(handler);
      const held = early.texts;
      early.texts = undefined;
      for (const text of held ?? []) handler(text);
    },
    onBinary(handler) {
      binaryHandlers.push(handler);
      const held = early.binaries;
      early.binaries = undefined;
      for (const data of held ?? []) handler(data);
    },
  };
}

function refusalHint(status: number | undefined): string {
  if (status === 404) return ' (no external media channel waits with that connection id, or it timed out)';
  if (status === 409) return ' (another socket is already connected for that connection id)';
  return '';
}
