import { splitArguments } from '@ringflow/client';
import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

const DEFAULT_TIMEOUT_MS = 500;
const MAX_TIMEOUT_MS = 60_000;

/**
 * StasisBroadcast([timeout[,app_filter[,args[,notify_claimed]]]]): offers the channel to every
 * registered application (or those whose names match the regular expression `app_filter`) with
 * a CallBroadcast event; the first `POST /events/claim` wins and the channel enters Stasis with
 * that application (args colon-separated, as Stasis' extra arguments). STASISSTATUS: SUCCESS or
 * FAILED after the Stasis session, TIMEOUT when nobody claimed it within `timeout` ms (default
 * 500, 0-60000), and the dialplan goes on.
 *
 * @example exten => 100,1,StasisBroadcast(2000,^ivr-.*,sales:priority-high)
 */
export const StasisBroadcast: DialplanApplication = {
  name: 'StasisBroadcast',
  async run({ host, data, warn, tookTime }) {
    host.setVariable('STASISSTATUS', '');
    const [timeoutText = '', filter = '', argsText = '', notify = ''] = splitArguments(data);
    let timeoutMs = DEFAULT_TIMEOUT_MS;
    if (timeoutText.trim() !== '') {
      const parsed = Number.parseInt(timeoutText.trim(), 10);
      if (!Number.isFinite(parsed) || parsed < 0 || parsed > MAX_TIMEOUT_MS) {
        warn(
          `StasisBroadcast: invalid timeout value '${timeoutText}' (must be 0-${MAX_TIMEOUT_MS}ms), using default ${DEFAULT_TIMEOUT_MS}ms`,
        );
      } else timeoutMs = parsed;
    }
    if (!host.broadcast) {
      host.setVariable('STASISSTATUS', 'FAILED');
      return NEXT;
    }
    const winner = await host.broadcast({
      timeoutMs,
      filter: filter.trim() === '' ? undefined : filter.trim(),
      notifyClaimed: /^(yes|true|y|t|1|on)$/i.test(notify.trim()),
    });
    if (winner === 'hungup') {
      host.endBroadcast?.();
      return HUNGUP;
    }
    if (winner === undefined) {
      host.endBroadcast?.();
      if (timeoutMs > 0) tookTime();
      host.log('warning', `Channel ${host.channelName}: not claimed within ${timeoutMs}ms timeout`);
      host.setVariable('STASISSTATUS', 'TIMEOUT');
      return NEXT;
    }
    const args = argsText === '' ? [] : argsText.split(':');
    const exit = await host.enterStasis(winner, args);
    // Withdrawn only now: claimants racing the winner get 409 (not 404) while it has the call.
    host.endBroadcast?.();
    if (exit.kind === 'hungup' || host.isHungUp()) return HUNGUP;
    tookTime();
    if (exit.kind === 'failed') return NEXT;
    if (exit.kind === 'continue' && exit.target) return { kind: 'goto', target: exit.target };
    return NEXT;
  },
};
