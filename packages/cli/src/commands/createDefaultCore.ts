import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSimulator, formatIssue, parseDialplan } from '../simulatorPackage.ts';
import type { CoreOptions, RunningCore } from './simulatorCommand.ts';

/**
 * The simulator core `ringflow simulator` serves: `createSimulator` with the given clock and the
 * dialplan file parsed (its `#include`s read relative to the including file). Dialplan warnings
 * go to `warn`, one `file:line: warning: ...` line each; errors throw, all listed in the message.
 *
 * @example
 * const core = createDefaultCore({ clock: systemClock, warn: console.error });
 */
export function createDefaultCore(options: CoreOptions): RunningCore {
  if (!options.dialplan) return createSimulator({ clock: options.clock });
  const dialplan = parseDialplan(options.dialplan.text, options.dialplan.file, {
    include: (path, fromFile) => {
      const file = resolve(dirname(fromFile), path);
      try {
        return { text: readFileSync(file, 'utf8'), file };
      } catch {
        return undefined;
      }
    },
  });
  for (const warning of dialplan.warnings) options.warn(formatIssue(warning));
  return createSimulator({ clock: options.clock, dialplan });
}
