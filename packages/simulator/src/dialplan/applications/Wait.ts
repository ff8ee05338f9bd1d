import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

/** Wait(seconds): waits (fractions allowed: `Wait(0.5)`), on the core's clock. */
export const Wait: DialplanApplication = {
  name: 'Wait',
  async run({ host, data, warn, tookTime }) {
    const seconds = Number(data.trim());
    if (data.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
      warn(`Wait(${data}): expected a number of seconds, e.g. Wait(1.5); not waiting`);
      return NEXT;
    }
    const ms = Math.round(seconds * 1000);
    if ((await host.wait(ms)) === 'hungup') return HUNGUP;
    if (ms > 0) tookTime();
    return NEXT;
  },
};
