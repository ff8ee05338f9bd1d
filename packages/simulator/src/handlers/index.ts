import type { HandlerTable } from './HandlerContext.ts';
import { applicationsHandlers } from './applicationsHandlers.ts';
import { asteriskHandlers } from './asteriskHandlers.ts';
import { bridgesHandlers } from './bridgesHandlers.ts';
import { channelsHandlers } from './channelsHandlers.ts';
import { endpointsHandlers } from './endpointsHandlers.ts';
import { eventsHandlers } from './eventsHandlers.ts';
import { coreFacilitiesHandlers } from './coreFacilitiesHandlers.ts';
import { deviceStatesHandlers } from './deviceStatesHandlers.ts';
import { mailboxesHandlers } from './mailboxesHandlers.ts';
import { soundsHandlers } from './soundsHandlers.ts';
import { playbacksHandlers } from './playbacksHandlers.ts';
import { recordingsHandlers } from './recordingsHandlers.ts';

/** Every REST handler, by resource then operation name (as in the interface description). */
export const handlers: Readonly<Record<string, HandlerTable>> = {
  asterisk: { ...asteriskHandlers, ...coreFacilitiesHandlers },
  applications: applicationsHandlers,
  events: eventsHandlers,
  channels: channelsHandlers,
  bridges: bridgesHandlers,
  playbacks: playbacksHandlers,
  recordings: recordingsHandlers,
  endpoints: endpointsHandlers,
  deviceStates: deviceStatesHandlers,
  mailboxes: mailboxesHandlers,
  sounds: soundsHandlers,
};
