import type { CoreOptions, RunningCore } from './simulatorCommand.ts';

/**
 * The simulator core `ringflow simulator` serves: `createSimulator` with the given clock and, when
 * a dialplan file is given, that file (its `#include`s read relative to the including file)
 * instead of the simulator's default dialplan. Dialplan warnings go to `warn`, one
 * `file:line:col: warning: ...` line each; an unreadable file or a dialplan with errors throws,
 * every error listed in the message.
 *
 * @example
 * const core = await createDefaultCore({ clock: systemClock, dialplanFile: 'extensions.conf', warn: console.error });
 */
export async function createDefaultCore(options: CoreOptions): Promise<RunningCore> {
  const { createSimulator, formatIssue, loadDialplanFile } = await import('../simulatorPackage.ts');
  if (options.dialplanFile === undefined) return createSimulator({ clock: options.clock });
  const dialplan = loadDialplanFile(options.dialplanFile);
  for (const warning of dialplan.warnings) options.warn(formatIssue(warning));
  return createSimulator({ clock: options.clock, dialplan });
}
