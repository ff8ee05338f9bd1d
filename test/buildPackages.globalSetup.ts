import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds the packages' JavaScript once before the tests: the tests that start the `ringflow`
 * command as a process run `dist/`, which must match the sources under test (~1 s).
 */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build-packages.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
