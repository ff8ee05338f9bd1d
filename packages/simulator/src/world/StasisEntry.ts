import { MAX_STASIS_ARGS, splitArguments } from '@ringflow/client';

/**
 * How a channel enters an application: the application, the arguments its StasisStart carries,
 * and the `Stasis()` data its snapshot shows (`dialplan.app_data`), which the server's `Stasis`
 * application splits back into those arguments.
 */
export interface StasisEntry {
  readonly app: string;
  readonly args: readonly string[];
  readonly appData: string;
}

/** Characters the server's argument splitter treats specially; a backslash before one makes it literal. */
const SPECIAL = /[\\,"()[\]]/g;

/**
 * An entry from the `appArgs` text of a REST request (originate, create, snoop). The real server
 * appends the text as given after `app,` and `Stasis` splits it (commas outside quotes, parentheses
 * and brackets; quotes and backslashes removed), so the snapshot shows the text unchanged.
 *
 * @example
 * stasisEntryFromText('ivr', '"a,b",c') // { app: 'ivr', args: ['a,b', 'c'], appData: 'ivr,"a,b",c' }
 */
export function stasisEntryFromText(app: string, appArgs: string | undefined): StasisEntry {
  if (!appArgs) return { app, args: [], appData: app };
  return { app, args: splitArguments(appArgs, ',', MAX_STASIS_ARGS), appData: `${app},${appArgs}` };
}

/**
 * An entry from arguments already split (a call placed by the driver, as if from a dialplan
 * `Stasis()` line). Each argument's special characters are escaped with a backslash, the form a
 * dialplan writer would use, so splitting the data gives the same arguments back. Inferred: the
 * recorded traces show no argument with a comma, quote or backslash.
 *
 * @example
 * stasisEntryFromArgs('ivr', ['a,b', 'c']) // { app: 'ivr', args: ['a,b', 'c'], appData: 'ivr,a\\,b,c' }
 */
export function stasisEntryFromArgs(app: string, args: readonly string[]): StasisEntry {
  const escaped = args.map((arg) => arg.replace(SPECIAL, '\\$&'));
  return { app, args, appData: [app, ...escaped].join(',') };
}

/**
 * The arguments of `POST /channels/{id}/move` from its `appArgs` text. Unlike `Stasis()` data, the
 * real server cuts the text at every comma with `strtok_r` (res/stasis/control.c,
 * `app_control_move`): no quoting or escaping, and empty arguments vanish (`a,,b` and `,a,b,`
 * give `a`, `b`).
 *
 * @example
 * moveArgsFromText('"x,y",,z') // ['"x', 'y"', 'z']
 */
export function moveArgsFromText(appArgs: string | undefined): string[] {
  return appArgs === undefined ? [] : appArgs.split(',').filter((arg) => arg !== '');
}
