import { MAX_MEDIA_MESSAGE_BYTES, type MediaConnection, webSocketMediaConnection } from '@ringflow/client';
import { WebSocket } from 'ws';
import { openedWebSocket } from '../outbound/openedWebSocket.ts';

/**
 * The server's end of one media connection: the client's {@link MediaConnection} (text control
 * messages and binary audio both ways, and a close code). A WebSocket is one
 * (`webSocketMediaConnection`); {@link createMediaPipePair} makes an in-process pair for tests
 * without sockets.
 */
export type MediaPipe = MediaConnection;

/** What the server dials for a `websocket_client`: the URI, offered subprotocols, handshake headers. */
export interface MediaDialRequest {
  readonly uri: string;
  readonly protocols: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** Opens a media connection to the application; rejects when refused or unreachable. */
export type MediaDialer = (request: MediaDialRequest) => Promise<MediaPipe>;

/** Dials with a real WebSocket (what the simulator does by default, as a real server does). */
export const dialMediaWebSocket: MediaDialer = async (request) => {
  const ws = new WebSocket(request.uri, request.protocols === '' ? [] : request.protocols.split(','), {
    headers: { ...request.headers },
    perMessageDeflate: false,
    maxPayload: MAX_MEDIA_MESSAGE_BYTES,
    handshakeTimeout: request.timeoutMs,
  });
  return webSocketMediaConnection(await openedWebSocket(ws));
};

/**
 * Two connected pipes in one process: what one side sends the other receives at once. A binary
 * message over {@link MAX_MEDIA_MESSAGE_BYTES} closes both with 1009, as a WebSocket peer does.
 *
 * @example
 * const { server, app } = createMediaPipePair();
 * sim.media.acceptIncoming(connectionId)(server); // the application connected in
 * app.onText((text) => console.log(text)); // MEDIA_START connection_id:... format:ulaw ...
 */
export function createMediaPipePair(): { server: MediaPipe; app: MediaPipe } {
  let open = true;
  const text: [((t: string) => void)[], ((t: string) => void)[]] = [[], []];
  const binary: [((d: Uint8Array) => void)[], ((d: Uint8Array) => void)[]] = [[], []];
  const closes: [((c: number) => void)[], ((c: number) => void)[]] = [[], []];
  const closeBoth = (code: number) => {
    if (!open) return;
    open = false;
    for (const side of closes) for (const handler of side.splice(0)) handler(code);
  };
  const end = (me: 0 | 1): MediaPipe => {
    const other = me === 0 ? 1 : 0;
    return {
      get open() {
        return open;
      },
      sendText: (t) => {
        if (open) for (const handler of text[other]) handler(t);
      },
      sendBinary: (d) => {
        if (!open) return;
        if (d.byteLength > MAX_MEDIA_MESSAGE_BYTES) closeBoth(1009);
        else for (const handler of binary[other]) handler(d);
      },
      close: (code = 1000) => closeBoth(code),
      onText: (handler) => void text[me].push(handler),
      onBinary: (handler) => void binary[me].push(handler),
      onClose: (handler) => void closes[me].push(handler),
    };
  };
  return { server: end(0), app: end(1) };
}
