import type { MediaConnection } from '@ringflow/client';

/**
 * Opens the media socket of an external media channel the application connects in to
 * (`connection_type=server`), given the reply's `MEDIA_WEBSOCKET_CONNECTION_ID`: a WebSocket to
 * the server's `/media/<id>` (`connectMediaSocket` of @ringflow/client), or an in-process pipe
 * of the simulator in tests. Messages that arrive before the relay listens must be kept for it.
 */
export type MediaConnector = (connectionId: string) => Promise<MediaConnection>;
