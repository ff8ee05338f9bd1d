import { HttpError } from './HttpError.ts';

/**
 * True when `error` says that the channel, bridge, playback or recording an operation addressed
 * no longer exists: the normal outcome of racing a hangup, not a failure to report.
 *
 * @example
 * await client.channel(id).hangup().catch((e) => { if (!isResourceGone(e)) throw e; });
 */
export function isResourceGone(error: unknown): boolean {
  return error instanceof HttpError && error.isResourceGone;
}
