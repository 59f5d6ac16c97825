import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// No test reaches the network (each starts its own loopback servers), and a Node started with
// NODE_EXTRA_CA_CERTS reads that whole certificate bundle first: ~60 ms more for every CLI process
// the tests spawn (thousands of them) on a machine that sets it for npm. The test workers, and the
// processes they start, go without it.
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * What a test file uses to start a process or a server (the CLI, git, PostgreSQL, a browser, the
 * loopback model, the language server), to change the worker's process, or to measure its heap
 * (what other files left in a shared worker's heap would count against the bound; so does any file
 * with "memory" in its name): such a file
 * runs in a worker of its own, as vitest runs every file by default.
 */
const STARTS_PROCESSES = /run-cli|cli-project|spawn|execFile|postgres|chromium|playwright|startOpenAIServer|useOpenAIServer|lsp-session|nvim|fresh-clone|conversationProject|fault-project|git-repo|process\.env|memoryUsage|heapUsed|getHeapStatistics|\bgc\(/;

/**
 * The other test files (about half of them: in-process units) share their workers' module graph
 * (`isolate: false`): each such file is still imported afresh, but the modules it imports (src/,
 * vitest's own) are loaded once per worker, not once per file. Measured on those 164 files, forks
 * pool, 2 workers on a loaded machine: 216 s → 146 s of CPU, every test passing.
 */
function sharedModuleFiles(): string[] {
  const files = readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.test.ts')).map((name) => join('test', name));
  return files.filter((file) => !/memory/i.test(file) && !STARTS_PROCESSES.test(readFileSync(file, 'utf8'))).sort();
}
const SHARED = sharedModuleFiles();

export default defineConfig({
  test: {
    // The viewer's browser tests need Chromium unpacked once (test/view/global-setup.ts).
    globalSetup: ['test/view/global-setup.ts'],
    // Most test files wait on child processes (the CLI, a browser), not on this process: two
    // files at a time on two cores halve the suite's time (vitest's default here is one).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'own-worker', include: ['test/**/*.test.ts'], exclude: SHARED } },
      { extends: true, test: { name: 'shared-modules', include: SHARED, isolate: false } },
    ],
  },
});
