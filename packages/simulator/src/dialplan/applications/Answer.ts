import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

/**
 * Answer([delay]): answers the channel (nothing when it is already up), then waits `delay`
 * milliseconds if given.
 */
export const Answer: DialplanApplication = {
  name: 'Answer',
  async run({ host, data, warn, tookTime }) {
    if (host.isAnswered()) return NEXT;
    await host.answer();
    if (host.isHungUp()) return HUNGUP;
    const delayText = data.split(',')[0]?.trim() ?? '';
    if (delayText) {
      const delay = Number(delayText);
      if (!Number.isFinite(delay) || delay < 0) {
        warn(`Answer(${data}): the delay must be a number of milliseconds; answering without delay`);
      } else if (delay > 0) {
        if ((await host.wait(delay)) === 'hungup') return HUNGUP;
        tookTime();
      }
    }
    return NEXT;
  },
};
