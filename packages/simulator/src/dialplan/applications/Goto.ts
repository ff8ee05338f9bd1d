import type { DialplanApplication } from './DialplanApplication.ts';
import { parseGotoTarget } from './gotoTarget.ts';

/**
 * Goto([[context,]exten,]priority): jumps; the priority may be a label or `+n`/`-n`.
 * A destination that does not exist ends the call, as on the real server.
 */
export const Goto: DialplanApplication = {
  name: 'Goto',
  run({ data, location }) {
    const target = parseGotoTarget(data, location);
    if (typeof target === 'string') return { kind: 'failed', message: `Goto: ${target}` };
    return { kind: 'goto', target };
  },
};
