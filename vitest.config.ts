import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The viewer's browser tests need Chromium unpacked once (test/view/global-setup.ts).
    globalSetup: ['test/view/global-setup.ts'],
    // Most test files wait on child processes (the CLI, a browser), not on this process: two
    // files at a time on two cores halve the suite's time (vitest's default here is one).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
