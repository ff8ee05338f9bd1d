import { type RawData, WebSocket } from 'ws';
import { openedWebSocket } from '../outbound/openedWebSocket.ts';

/**
 * The server's end of one media connection: text control messages and binary audio both ways,
 * and a close code. A WebSocket is one ({@link webSocketMediaPipe}); {@link createMediaPipePair}
 * makes an in-process pair for tests without sockets.
 *
 * Contract: messages sent while `open` arrive in order; `onClose` is called once, when either
 * side closed (1006 when the connection just broke); `close` may be called in any state.
 */
export interface MediaPipe {
  readonly open: boolean;
  sendText(text: string): void;
  sendBinary(data: Uint8Array): void;
  close(code?: number): void;
  onText(handler: (text: string) => void): void;
  onBinary(handler: (data: Uint8Array) => void): void;
  onClose(handler: (code: number) => void): void;
}

/** The largest WebSocket message the server takes; a larger one closes the connection with 1009 (observed). */
export const MAX_MEDIA_MESSAGE_BYTES = 65535;

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
  return webSocketMediaPipe(await openedWebSocket(ws));
};

/** An open WebSocket as a media pipe. */
export function webSocketMediaPipe(ws: WebSocket): MediaPipe {
  ws.on('error', () => ws.terminate());
  const bytes = (data: RawData): Buffer =>
    Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data as ArrayBuffer);
  return {
    get open() {
      return ws.readyState === ws.OPEN;
    },
    sendText: (text) => ws.send(text),
    sendBinary: (data) => ws.send(data, { binary: true }),
    close: (code = 1000) => {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code);
    },
    onText: (handler) =>
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (!isBinary) handler(bytes(data).toString('utf8'));
      }),
    onBinary: (handler) =>
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) handler(new Uint8Array(bytes(data)));
      }),
    onClose: (handler) => ws.once('close', (code: number) => handler(code)),
  };
}

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
