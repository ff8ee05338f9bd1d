import type { DialplanApplication } from './DialplanApplication.ts';
import { hangupCauses, NORMAL_CLEARING } from './hangupCauses.ts';

/**
 * Hangup([cause]): ends the call. The cause is a Q.850 number (`17`) or name (`USER_BUSY`);
 * without one, or with one that is not valid, the cause is 16 (normal clearing).
 */
export const Hangup: DialplanApplication = {
  name: 'Hangup',
  run({ data, warn }) {
    const text = data.trim();
    if (!text) return { kind: 'hangup', cause: NORMAL_CLEARING };
    const named = hangupCauses[text.toUpperCase()];
    if (named !== undefined) return { kind: 'hangup', cause: named };
    const number = /^\d+/.exec(text) ? Number.parseInt(text, 10) : Number.NaN;
    if (number > 0) return { kind: 'hangup', cause: number };
    warn(`Hangup(${text}): not a cause; use a Q.850 number (17) or name (USER_BUSY). Using 16`);
    return { kind: 'hangup', cause: NORMAL_CLEARING };
  },
};
