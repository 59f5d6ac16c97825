import { defineConfig } from 'vitest/config';

// No test reaches the network (each starts its own loopback servers), and a Node started with
// NODE_EXTRA_CA_CERTS reads that whole certificate bundle first: ~60 ms more for every CLI process
// the tests spawn (thousands of them) on a machine that sets it for npm. The test workers, and the
// processes they start, go without it.
delete process.env.NODE_EXTRA_CA_CERTS;

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
