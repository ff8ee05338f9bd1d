import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

/** Progress(): signals early media ("183 Session Progress") without answering. */
export const Progress: DialplanApplication = {
  name: 'Progress',
  run({ host }) {
    host.indicate('progress');
    return NEXT;
  },
};
