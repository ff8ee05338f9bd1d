import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium, which the browser tests drive (CI installs it: `.ci/run`). */
const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser tests can run here (`describe.skipIf(!HAS_CHROMIUM)`). */
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** Flags for a page that plays sound and hears a fake microphone (without `file`: a tone). */
export function fakeMediaFlags(file?: string): string[] {
  return [
    '--autoplay-policy=no-user-gesture-required',
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    ...(file === undefined ? [] : [`--use-file-for-fake-audio-capture=${file}`]),
  ];
}

/**
 * Starts headless chromium for a browser test, with more flags when given (see
 * {@link fakeMediaFlags}).
 *
 * @example
 * browser = await launchChromium(fakeMediaFlags(voiceWav));
 */
export function launchChromium(flags: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...flags],
  });
}
