import type WebSocket from 'ws';

/**
 * Resolves with `ws` once its handshake is done; rejects when the application refuses it (with
 * the HTTP status) or cannot be reached, and then terminates it. How the simulator dials an
 * application, as a real server does: ARI outbound sockets and media sockets alike.
 */
export function openedWebSocket(ws: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      reject(error);
    };
    ws.once('open', () => {
      ws.removeListener('error', fail);
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => fail(new Error(`refused with ${res.statusCode}`)));
    ws.once('error', fail);
  });
}
