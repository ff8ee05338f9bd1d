export { createMediaPipePair, dialMediaWebSocket, MAX_MEDIA_MESSAGE_BYTES } from './MediaPipe.ts';
export type { MediaDialer, MediaDialRequest, MediaPipe } from './MediaPipe.ts';
export type { MediaSockets, IncomingMediaAnswer, ExternalMediaWebSocketRequest } from './MediaSockets.ts';
export type { MediaWebSocketClient, MediaWebSocketOptions } from './MediaWebSocketOptions.ts';
export type { HeardAudio } from './HeardAudio.ts';
export { QUEUE_LIMIT, XOFF_LEVEL, XON_LEVEL } from './MediaSession.ts';
export { MEDIA_PATH_PREFIX } from './acceptMediaUpgrade.ts';
