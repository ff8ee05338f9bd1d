import { isTrueCondition } from '../variableScope.ts';
import { type DialplanApplication, NEXT } from './DialplanApplication.ts';
import { parseGotoTarget } from './gotoTarget.ts';

/**
 * GotoIf(condition?[destination-if-true][:destination-if-false]): a Goto chosen by the
 * condition (usually a `$[...]` expression); an empty branch goes on with the next priority.
 *
 * @example GotoIf($[${COUNT} > 3]?too-many,1:menu)
 */
export const GotoIf: DialplanApplication = {
  name: 'GotoIf',
  run({ data, location }) {
    const question = data.indexOf('?');
    if (question < 0) {
      return { kind: 'failed', message: `GotoIf(${data}): expected condition?destination[:destination]` };
    }
    const branches = data.slice(question + 1);
    const colon = branches.indexOf(':');
    const chosen = isTrueCondition(data.slice(0, question))
      ? colon < 0
        ? branches
        : branches.slice(0, colon)
      : colon < 0
        ? ''
        : branches.slice(colon + 1);
    if (chosen.trim() === '') return NEXT;
    const target = parseGotoTarget(chosen, location);
    if (typeof target === 'string') return { kind: 'failed', message: `GotoIf: ${target}` };
    return { kind: 'goto', target };
  },
};
