import type { RawData, WebSocket } from 'ws';

/**
 * One end of a media connection: text control messages and binary audio both ways, and a close
 * code. A WebSocket is one ({@link webSocketMediaConnection}); the simulator also makes
 * in-process pairs, so the client and the server side can be tested without sockets.
 *
 * Contract: messages sent while `open` arrive in order; `onClose` handlers are called once,
 * when either side closed (1006 when the connection just broke); `close` may be called in any
 * state.
 */
export interface MediaConnection {
  readonly open: boolean;
  sendText(text: string): void;
  sendBinary(data: Uint8Array): void;
  close(code?: number): void;
  onText(handler: (text: string) => void): void;
  onBinary(handler: (data: Uint8Array) => void): void;
  onClose(handler: (code: number) => void): void;
}

/**
 * An open `ws` WebSocket as a media connection.
 *
 * @example
 * wss.on('connection', (ws) => { const socket = new MediaSocket(webSocketMediaConnection(ws)); });
 */
export function webSocketMediaConnection(ws: WebSocket): MediaConnection {
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
        if (isBinary) {
          const buffer = bytes(data);
          handler(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
        }
      }),
    onClose: (handler) => ws.once('close', (code: number) => handler(code)),
  };
}
