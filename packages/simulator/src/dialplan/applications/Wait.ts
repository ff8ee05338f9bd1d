import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

/** Wait(seconds): waits (fractions allowed: `Wait(0.5)`), on the core's clock. */
export const Wait: DialplanApplication = {
  name: 'Wait',
  async run({ host, data, warn }) {
    const seconds = Number(data.trim());
    if (data.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
      warn(`Wait(${data}): expected a number of seconds, e.g. Wait(1.5); not waiting`);
      return NEXT;
    }
    return (await host.wait(Math.round(seconds * 1000))) === 'hungup' ? HUNGUP : NEXT;
  },
};
