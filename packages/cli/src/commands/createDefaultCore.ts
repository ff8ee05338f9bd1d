import type { FarEndConfig } from '../simulatorPackage.ts';
import type { CoreOptions, RunningCore } from './simulatorCommand.ts';

/**
 * The simulator core `ringflow simulator` serves: `createSimulator` with the given clock, the
 * sounds of `--sounds` (durations read from the audio files) beside its core sounds, and, when
 * a dialplan file is given, that file (its `#include`s read relative to the including file)
 * instead of the simulator's default dialplan. Dialplan warnings go to `warn`, one
 * `file:line:col: warning: ...` line each; an unreadable file or a dialplan with errors throws,
 * every error listed in the message.
 *
 * @example
 * const core = await createDefaultCore({ clock: systemClock, dialplanFile: 'extensions.conf', warn: console.error });
 */
/** File-system errors in words. */
const FOLDER_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such folder',
  ENOTDIR: 'it is a file, not a folder',
  EACCES: 'permission denied',
};

export async function createDefaultCore(options: CoreOptions): Promise<RunningCore> {
  const { createSimulator, formatIssue, loadDialplanFile, parseFarEndConfig, readSoundDirectory } =
    await import('../simulatorPackage.ts');
  const endpoints: Record<string, FarEndConfig> = {};
  for (const [endpoint, behaviour] of Object.entries(options.endpoints ?? {})) {
    try {
      endpoints[endpoint] = parseFarEndConfig(behaviour);
    } catch (error) {
      throw new Error(`--endpoint ${endpoint}: ${(error as Error).message}`);
    }
  }
  let sounds: Awaited<ReturnType<typeof readSoundDirectory>>['sounds'] | undefined;
  if (options.soundsDir !== undefined) {
    const found = await readSoundDirectory(options.soundsDir).catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        `cannot read the sounds folder ${options.soundsDir}: ${FOLDER_ERRORS[error.code ?? ''] ?? error.message}`,
      );
    });
    for (const { file, reason } of found.skipped) options.warn(`${file}: skipped: ${reason}`);
    options.warn(
      `${options.soundsDir}: ${found.sounds.length} sound${found.sounds.length === 1 ? '' : 's'} added`,
    );
    sounds = found.sounds;
  }
  const dialplan = options.dialplanFile === undefined ? undefined : loadDialplanFile(options.dialplanFile);
  for (const warning of dialplan?.warnings ?? []) options.warn(formatIssue(warning));
  return createSimulator({
    clock: options.clock,
    // The accounts exist as configuration too (`res_ari/user/<name>`, read-only: from a file).
    users: (options.users ?? []).map((u) => ({
      name: u.username,
      password: u.password,
      ...(u.readOnly ? { readOnly: true } : {}),
    })),
    ...(dialplan ? { dialplan } : {}),
    ...(options.serverResource !== undefined ? { serverResource: options.serverResource } : {}),
    endpoints,
    ...(sounds ? { sounds: { extraSounds: sounds } } : {}),
  });
}
