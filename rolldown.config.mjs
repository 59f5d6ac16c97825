// Bundles the CLI into dist/bundle/: one file to load at start-up instead of hundreds of
// modules to resolve (measured: ~0.3 s less per command). Lazy imports stay lazy as chunks.
// jiti and chokidar stay external: jiti loads the user's config with its own module loader,
// and chokidar is only needed in watch mode. pg (and pg-copy-streams) stay external: loaded only
// with a PostgreSQL store, and pg's optional pg-native must stay a runtime lookup.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sdkUserAgentPlugin } from './scripts/sdk-user-agent-plugin.mjs';

/**
 * The bundle is the package's bin: `npx agentmark`, `npm link` and an install from a folder or
 * tarball exec it directly, which fails with "Permission denied" without the executable bit
 * (rolldown writes files 0644, and a fresh build replaces the file).
 */
const executableBin = {
  name: 'executable-bin',
  writeBundle(options, bundle) {
    for (const file of Object.values(bundle)) {
      if ((file.type === 'chunk' && file.isEntry) || file.fileName === BIN_SHIM) chmodSync(join(options.dir, file.fileName), 0o755);
    }
  },
};

/**
 * The package's bin, `dist/bundle/agentmark.cjs` (scripts/bin-shim.cjs): answers `--version` and
 * `--help` from text written into it here, at build time (the version from package.json, the help
 * from the compiled src/cli/global-help.ts), and imports the CLI bundle for everything else.
 */
const BIN_SHIM = 'agentmark.cjs';
const binShim = {
  name: 'bin-shim',
  async generateBundle() {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    const { globalHelp } = await import('./dist/cli/global-help.js');
    const source = readFileSync('scripts/bin-shim.cjs', 'utf8')
      .replace('__AGENTMARK_VERSION__', () => JSON.stringify(version))
      .replace('__AGENTMARK_HELP__', () => JSON.stringify(globalHelp()));
    this.emitFile({ type: 'asset', fileName: BIN_SHIM, source });
    // The bin's V8 code cache for the CLI's CommonJS chunks, required before them.
    this.emitFile({ type: 'asset', fileName: 'compile-cache.cjs', source: readFileSync('scripts/compile-cache.cjs', 'utf8') });
  },
};

// CommonJS, not ES modules: node's ES module loader resolves, translates and links each chunk
// asynchronously (~85 chunks before a run's first request), and only CommonJS can use a V8 code
// cache on Node 20 (scripts/compile-cache.cjs). Measured on a one-row run: CPU 0.81× the same
// bundle as ES modules. `import.meta.url` becomes the file's URL, and external packages are still
// loaded with `import()` (chokidar is an ES module) or `require` (jiti, pg), as before.
const cli = {
  input: { cli: 'dist/cli/bin.js' },
  platform: 'node',
  external: ['jiti', 'chokidar', 'pg', 'pg-copy-streams', /^node:/],
  logLevel: 'warn',
  // The SDK's per-request user-agent step without a web Headers object (see the plugin).
  plugins: [binShim, executableBin, sdkUserAgentPlugin()],
  // Dependencies' 'use client'-style directives mean nothing in a CLI bundle.
  onLog(level, log, handler) {
    if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
    handler(level, log);
  },
  output: {
    dir: 'dist/bundle',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    // JSDoc comments are ~10% of the bundle that start-up parses, and their `import('x').Type`
    // would make a chunk look as if it had a dynamic import (scripts/compile-cache.cjs). Licences stay.
    comments: { legal: true, annotation: false, jsdoc: false },
    // The one dynamic import() on a run's start-up path (a provider package installed in the
    // project) in a chunk of its own, so the model caller's chunk can use the compile cache.
    codeSplitting: { groups: [{ name: 'installed-provider', test: /dist[\\/]model[\\/]installed-provider\.js$/ }] },
  },
};

/** The worker bundles stay ES modules, as before: each thread loads its own bundle, off the start-up path. */
const workerOutput = { dir: 'dist/bundle', format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' };

// The worker thread that runs user scorers (src/scoring/workers/) is bundled on its own, next to
// the CLI, so workers start from one file too and the CLI's chunks stay as they were.
const scorerWorker = { ...cli, plugins: [], input: { 'scorer-worker': 'dist/scoring/workers/scorer-worker.js' }, output: workerOutput };

// The worker thread that sends a long run's model requests (src/model/http/), bundled the same way.
const httpWorker = { ...cli, plugins: [], input: { 'http-worker': 'dist/model/http/http-worker.js' }, output: workerOutput };

// The worker thread that checks a merge's shards hold only their own rows (src/shard/misplaced-check.ts).
const misplacedWorker = { ...cli, plugins: [], input: { 'misplaced-worker': 'dist/shard/misplaced-worker.js' }, output: workerOutput };

export default [cli, scorerWorker, httpWorker, misplacedWorker];
