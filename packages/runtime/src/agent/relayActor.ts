import { fromCallback } from 'xstate';
import type { AgentInput } from './AgentServices.ts';
import { AudioRelay } from './AudioRelay.ts';
import { type RelayIds, type RelayReport, TextRelay } from './TextRelay.ts';

/** What the session machine tells its relay. */
export type RelayCommand =
  | { readonly type: 'mediaEntered' }
  | { readonly type: 'interrupt' }
  | { readonly type: 'key'; readonly digit: string }
  | { readonly type: 'toolResult'; readonly id: string; readonly result?: unknown; readonly error?: string }
  | { readonly type: 'close'; readonly reason?: string };

/**
 * The session's relay as an actor of the session machine, the text relay or the audio relay as
 * `settings.protocol` says: started with the session, told what to do by events, reporting back
 * with `RelayReport`s. Stopped before it was closed (the caller hung
 * up, the flow left the step), it closes itself: nothing is left open on the server or the bot.
 */
export const relayActor = fromCallback<RelayCommand, AgentInput & RelayIds>(
  ({ input, sendBack, receive }) => {
    const report = (r: RelayReport) => sendBack(r);
    const relay =
      input.settings.protocol === 'audio'
        ? new AudioRelay(input, input, report)
        : new TextRelay(input, input, report);
    void relay.start();
    let closing = false;
    receive((command) => {
      switch (command.type) {
        case 'mediaEntered':
          return relay.mediaEntered();
        case 'interrupt':
          return relay.interrupt();
        case 'key':
          return relay.key(command.digit);
        case 'toolResult':
          return relay.toolResult(command.id, {
            ...(command.result !== undefined ? { result: command.result } : {}),
            ...(command.error !== undefined ? { error: command.error } : {}),
          });
        case 'close':
          closing = true;
          void relay.close(command.reason).then(() => sendBack({ type: 'relay.closed' }));
      }
    });
    return () => {
      if (closing) return;
      // Stopped before the session decided its end: the caller hung up (or the flow left the step).
      input.services.metrics?.ended('hungUp');
      void relay.close('hungUp');
    };
  },
);
