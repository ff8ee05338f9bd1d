/**
 * Sends one call's REST requests (through its {@link CallRequests}: counted while pending,
 * cancelled when the call ends) and keeps up with what their results say about the call: a
 * request that took the call's channel out of the application (hang up, continue...), a live
 * recording started, a channel of the call found gone (404: the machine is told `call.gone`,
 * once per channel). A closing session ends once its last request has settled.
 */

import { ErrorCode, HttpError, isResourceGone, markCallGone, RingflowError } from '@ringflow/client';
import type { CallRequestOptions } from '../call/CallHandle.ts';
import { askServer } from '../recovery/ServerView.ts';
import { leftTheApplication, resourceCreatedBy, takesChannelOut } from './requestEffects.ts';
import type { SessionState } from './SessionState.ts';
import { settleClosing } from './sessionEnd.ts';

/** Sends one request for the call; rejects at once once the call has ended. */
export async function sendRequest(
  state: SessionState,
  operation: string,
  params: Readonly<Record<string, unknown>>,
  options?: CallRequestOptions,
): Promise<unknown> {
  const mainChannelId = state.session.channelId;
  if (state.ended) {
    throw new RingflowError(
      ErrorCode.CLOSED,
      `call ${mainChannelId} has ended; ${operation} was not sent. Check call.ended before sending.`,
    );
  }
  // A request that takes the call's channel out of the application (hang up, continue...) is
  // not cancelled when the call ends: the end is its expected effect, and its StasisEnd usually
  // arrives before its reply. Cancelling an HTTP/1.1 request in flight closes its pooled
  // connection, so every call would open a new one. Its timeout still bounds it.
  const leavesCall = takesChannelOut(operation, params, mainChannelId);
  // Sent before its events can arrive (on a real server they come before the reply): the
  // application is first to end the call unless the channel's own end came already.
  if (leavesCall)
    state
      .report()
      .noteEndedBy(
        operation === 'channels.continueInDialplan' ? 'dialplan' : 'flow',
        operation === 'channels.redirect',
      );
  try {
    const result = await state.requests.send(
      operation,
      params,
      leavesCall ? undefined : options?.signal,
      options?.timeoutMs,
    );
    if (leavesCall) state.leaving = true;
    const created = resourceCreatedBy(operation, params);
    if (created?.kind === 'recording') state.owned.noteStarted('recording', created.id);
    else if (created !== undefined) state.owned.noteConfirmed(created.kind, created.id);
    return result;
  } catch (error) {
    const channelId = typeof params.channelId === 'string' ? params.channelId : undefined;
    if (channelId && isResourceGone(error) && state.owned.has('channel', channelId)) {
      markCallGone(error);
      channelGone(state, channelId, operation);
    } else if (channelId === mainChannelId && !state.leaving && leftTheApplication(error)) {
      // The server says the call's channel is no longer in the application (sent elsewhere in
      // the dialplan or to another application by someone else) while the session believed it
      // was: its StasisEnd was lost, or is on its way. The call is gone for this application (its
      // logic runs its hang-up path and does not hang up a channel that is not its own), and the
      // server is asked at once what became of it, so the session ends without waiting for a
      // watchdog.
      markCallGone(error);
      channelGone(state, channelId, operation);
      const main = state.owned.get('channel', mainChannelId);
      if (main)
        state.session
          .recover(askServer(state.host.client), [main], 'refusal')
          .catch((err: unknown) =>
            state.log('warn', 'could not ask the server what became of the call', { err }),
          );
    } else if (state.phase.name === 'closing' && error instanceof HttpError && error.status < 500) {
      // The call's channel has left the application: a refusal now (a user event whose source
      // channel is gone, 409 "not in Stasis") is a consequence of that, not a machine failure.
      markCallGone(error);
    }
    throw error;
  } finally {
    settleClosing(state);
  }
}

/**
 * A channel of the call was found gone (a 404 to a request, or missing after an event stream
 * gap): the machine is told `call.gone`, once per channel.
 * @param operation what found it gone (a request's operation, or `reconcile`)
 */
export function channelGone(state: SessionState, channelId: string, operation: string): void {
  if (!state.noteGone(channelId)) return;
  if (channelId === state.session.channelId) state.leaving = true;
  state.log('debug', 'channel is gone', { channel: channelId, operation });
  state.session.tell({ type: 'call.gone', channelId, operation });
}
