import { assignVariable } from '../variableScope.ts';
import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

/**
 * Set(name=value): sets a channel variable, a global (`GLOBAL(name)=...`) or a writable
 * function (`CALLERID(name)=...`). Everything after the first `=` is the value, commas included.
 */
// Named SetApp so it does not shadow the global Set.
export const SetApp: DialplanApplication = {
  name: 'Set',
  run({ host, data, warn }) {
    const eq = data.indexOf('=');
    const name = eq < 0 ? '' : data.slice(0, eq).trim();
    if (!name) {
      warn(`Set(${data}): expected name=value, e.g. Set(COUNT=1)`);
      return NEXT;
    }
    assignVariable(host, name, data.slice(eq + 1), warn);
    return NEXT;
  },
};
