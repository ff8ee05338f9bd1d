export { createMediaPipePair, dialMediaWebSocket } from './MediaPipe.ts';
export type { MediaDialer, MediaDialRequest, MediaPipe } from './MediaPipe.ts';
export type { MediaSockets, IncomingMediaAnswer, ExternalMediaWebSocketRequest } from './MediaSockets.ts';
export type { MediaWebSocketClient, MediaWebSocketOptions } from './MediaWebSocketOptions.ts';
export type { HeardAudio } from './HeardAudio.ts';
export type { PlayedFrame } from './PlayedFrame.ts';
/** The protocol's facts live in the client (one description); re-exported for the simulator's users. */
export {
  MAX_MEDIA_MESSAGE_BYTES,
  MEDIA_PATH_PREFIX,
  QUEUE_LIMIT,
  XOFF_LEVEL,
  XON_LEVEL,
} from '@ringflow/client';
