import type { HandlerTable } from './HandlerContext.ts';
import { applicationsHandlers } from './applicationsHandlers.ts';
import { asteriskHandlers } from './asteriskHandlers.ts';
import { channelsHandlers } from './channelsHandlers.ts';
import { eventsHandlers } from './eventsHandlers.ts';

/** Every REST handler, by resource then operation name (as in the interface description). */
export const handlers: Readonly<Record<string, HandlerTable>> = {
  asterisk: asteriskHandlers,
  applications: applicationsHandlers,
  events: eventsHandlers,
  channels: channelsHandlers,
};
