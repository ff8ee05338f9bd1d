import type { ServerLink } from './ServerLink.ts';

/**
 * A channel entered the application while it drains (or has stopped): it is sent back to the
 * dialplan (`continue`, at the next priority, which may route it elsewhere) or hung up with cause
 * `congestion` (`hangup`, so the caller's side can retry elsewhere), as a retried cleanup request.
 */
export function refuseCall(link: ServerLink, channelId: string, how: 'hangup' | 'continue'): void {
  link.logger.info({ call: channelId, how }, 'not taking new calls (draining)');
  if (how === 'continue')
    link.cleanup(`continue ${channelId}`, () => link.client.channel(channelId).continueInDialplan());
  else
    link.cleanup(`refuse ${channelId}`, () =>
      link.client.channel(channelId).hangup({ reason: 'congestion' }),
    );
}
