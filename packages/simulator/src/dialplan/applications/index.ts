import { AMD } from './AMD.ts';
import { Answer } from './Answer.ts';
import type { DialplanApplication } from './DialplanApplication.ts';
import { Goto } from './Goto.ts';
import { GotoIf } from './GotoIf.ts';
import { Hangup } from './Hangup.ts';
import { Log } from './Log.ts';
import { NoOp } from './NoOp.ts';
import { Playback } from './Playback.ts';
import { Progress } from './Progress.ts';
import { Ringing } from './Ringing.ts';
import { SetApp } from './SetApp.ts';
import { Stasis } from './Stasis.ts';
import { StasisBroadcast } from './StasisBroadcast.ts';
import { UserEvent } from './UserEvent.ts';
import { Verbose } from './Verbose.ts';
import { Wait } from './Wait.ts';

export type { ApplicationContext, ApplicationResult, DialplanApplication } from './DialplanApplication.ts';

/** Every application the simulator implements. */
export const dialplanApplications: readonly DialplanApplication[] = [
  AMD,
  Answer,
  Goto,
  GotoIf,
  Hangup,
  Log,
  NoOp,
  Playback,
  Progress,
  Ringing,
  SetApp,
  Stasis,
  StasisBroadcast,
  UserEvent,
  Verbose,
  Wait,
];

const byName = new Map(dialplanApplications.map((app) => [app.name.toLowerCase(), app]));

/**
 * The application of that name (case-insensitive, as on the real server), if implemented.
 *
 * @example findApplication('playback')?.name // 'Playback'
 */
export function findApplication(name: string): DialplanApplication | undefined {
  return byName.get(name.trim().toLowerCase());
}
