import { WebSocket } from 'ws';
import { webSocketMediaConnection } from './MediaConnection.ts';
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
export function connectMediaSocket(options: ConnectMediaSocketOptions): Promise<MediaSocket> {
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
      // Made in the open handler: MEDIA_START, the server's first message, comes after it.
      resolve(new MediaSocket(webSocketMediaConnection(ws), options));
    });
  });
}

function refusalHint(status: number | undefined): string {
  if (status === 404) return ' (no external media channel waits with that connection id, or it timed out)';
  if (status === 409) return ' (another socket is already connected for that connection id)';
  return '';
}
