import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

/** Ringing(): tells the caller the call is ringing, without answering. */
export const Ringing: DialplanApplication = {
  name: 'Ringing',
  run({ host }) {
    host.indicate('ringing');
    return NEXT;
  },
};
