import type { Channel, StreamEvent } from '@ringflow/client';
import { expect } from 'vitest';
import type { ContractSession } from './ContractSession.ts';
import type { EventLog } from './EventLog.ts';

/** A Local channel pair in demo-app, both halves answered and in Stasis. */
export interface LocalPair {
  /** The ;1 half, which the originate created (it enters the app once ;2 answers). */
  readonly a: string;
  /** The ;2 half, which runs the dialplan `stasis-ivr,s` and enters demo-app from there. */
  readonly b: string;
  readonly channel: Channel;
}

export function isEvent(type: string, subject?: string): (event: StreamEvent) => boolean {
  return (event) => {
    if (event.type !== type) return false;
    if (subject === undefined) return true;
    const e = event as Record<string, { id?: string; name?: string } | undefined>;
    const ids = [e.channel?.id, e.playback?.id, e.bridge?.id, e.recording?.name];
    return ids.includes(subject);
  };
}

/**
 * Places a call the way a real server's own caller would, without a driver: originates
 * `Local/s@stasis-ivr` into demo-app with caller-assigned ids, answers the ;2 half (which entered
 * demo-app from the dialplan) and waits until the ;1 half enters with the originate's arguments.
 *
 * @example
 * const { a, b } = await originateLocalPair(session, log, 'a', 'b');
 * await session.rest.channel(a).play({ media: 'sound:beep' });
 */
export async function originateLocalPair(
  session: ContractSession,
  log: EventLog,
  aName: string,
  bName: string,
  appArgs = 'alpha,beta',
): Promise<LocalPair> {
  const a = session.id(aName);
  const b = session.id(bName);
  const channel = await session.rest.channels.originate({
    endpoint: 'Local/s@stasis-ivr',
    app: 'demo-app',
    appArgs,
    callerId: 'Oracle <1000>',
    channelId: a,
    otherChannelId: b,
    timeout: 30,
    variables: { ORACLE_ORIG: 'yes' },
  });
  await session.nextEvent(log, `StasisStart of ${b}`, isEvent('StasisStart', b));
  await session.rest.channel(b).answer();
  const start = await session.nextEvent(log, `StasisStart of ${a}`, isEvent('StasisStart', a));
  expect((start as { args?: string[] }).args).toEqual(appArgs.split(','));
  return { a, b, channel };
}
