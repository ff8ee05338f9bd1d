import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SimResponse } from '../transport.ts';
import { MAX_MEDIA_MESSAGE_BYTES, MEDIA_PATH_PREFIX, webSocketMediaConnection } from '@ringflow/client';
import type { IncomingMediaAnswer } from './MediaSockets.ts';

export { MEDIA_PATH_PREFIX } from '@ringflow/client';

/** What the wire server needs of a simulator's media sockets. */
export interface IncomingMedia {
  acceptIncoming(connectionId: string): IncomingMediaAnswer;
}

/** Finds the media sockets of a server that has them (a simulator). */
export function incomingMediaOf(server: object): IncomingMedia | undefined {
  const media = (server as { media?: Partial<IncomingMedia> }).media;
  return typeof media?.acceptIncoming === 'function' ? (media as IncomingMedia) : undefined;
}

/** The wire server's handling of `/media/<id>` upgrades, and the sockets it accepted. */
export interface MediaUpgrades {
  /** Accepts the upgrade, or returns the refusal to answer instead. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): SimResponse | undefined;
  /** Closes every accepted media socket (1001). */
  closeAll(): void;
}

/**
 * Serves incoming media connections as a real server does: no credentials (the connection id is
 * the only protection), a query string is allowed, subprotocol `media` when offered, none
 * otherwise; messages over 65535 bytes close the socket with 1009 (observed).
 */
export function createMediaUpgrades(media: IncomingMedia): MediaUpgrades {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MEDIA_MESSAGE_BYTES,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has('media') ? 'media' : false),
  });
  const open = new Set<WebSocket>();
  return {
    accept(req, socket, head, path) {
      let id: string;
      try {
        id = decodeURIComponent(path.slice(MEDIA_PATH_PREFIX.length));
      } catch {
        id = '';
      }
      const answer = media.acceptIncoming(id);
      if (typeof answer !== 'function') return answer;
      wss.handleUpgrade(req, socket, head, (ws) => {
        open.add(ws);
        ws.once('close', () => open.delete(ws));
        answer(webSocketMediaConnection(ws));
      });
      return undefined;
    },
    closeAll() {
      for (const ws of open) ws.close(1001);
    },
  };
}
