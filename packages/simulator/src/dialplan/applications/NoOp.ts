import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

/** NoOp(text): does nothing; its (substituted) text shows in ChannelDialplan events. */
export const NoOp: DialplanApplication = {
  name: 'NoOp',
  run: () => NEXT,
};
