import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'test/**/*.test.ts',
      'examples/**/*.test.ts',
      'flows/**/*.test.ts',
    ],
    // Tests run on virtual clocks; a hung test is a bug, not slowness.
    testTimeout: 30_000,
    pool: 'threads',
  },
});
