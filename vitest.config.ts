import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The viewer's browser tests need Chromium unpacked once (test/view/global-setup.ts).
    globalSetup: ['test/view/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
