import { afterEach, beforeEach } from 'vitest';

/**
 * Collects every unhandled promise rejection during each test of the file. Tests end with
 * `expect(unhandled).toEqual([])` after letting pending callbacks run.
 *
 * @example
 * const unhandled = watchUnhandledRejections();
 * it('...', async () => { ...; await settle(); expect(unhandled).toEqual([]); });
 */
export function watchUnhandledRejections(): unknown[] {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', listener);
  });
  afterEach(() => {
    process.off('unhandledRejection', listener);
  });
  return unhandled;
}

/** Lets queued callbacks and rejections surface (two turns of the event loop). */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}
