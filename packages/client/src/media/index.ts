export * from './mediaFormats.ts';
export * from './mediaLimits.ts';
export * from './g711.ts';
export * from './pcmAudio.ts';
export * from './mediaCommands.ts';
export * from './mediaEvents.ts';
export * from './MediaConnection.ts';
export { MediaSocket } from './MediaSocket.ts';
export type { MarkOutcome, MediaProblem, MediaSocketOptions, MediaSocketStart } from './MediaSocket.ts';
export {
  connectMediaSocket,
  MEDIA_PATH_PREFIX,
  mediaSocketUrl,
  openMediaConnection,
} from './connectMediaSocket.ts';
export type { ConnectMediaSocketOptions } from './connectMediaSocket.ts';
export { MediaSocketServer } from './MediaSocketServer.ts';
export type { MediaSocketServerOptions } from './MediaSocketServer.ts';
