// A V8 code cache for the CLI bundle's CommonJS chunks (copied to dist/bundle/compile-cache.cjs
// by rolldown.config.mjs; the bin requires it before the CLI). Without it, every command compiles
// the ~1 MB of JavaScript a run needs again; with it, V8 reads the bytecode it produced the last
// time, lazily compiled functions included. Measured on a one-row run: CPU 0.76× (paired, medians
// of 12). Node 22.1+ has this built in (module.enableCompileCache), which is used there; Node 20
// has no hook for it but the CommonJS loader's Module.prototype._compile, which is what
// v8-compile-cache did for years. Only files of this bundle folder go through it.
//
// The cache lives in the user's cache folder (XDG_CACHE_HOME or ~/.cache, ~/Library/Caches,
// %LOCALAPPDATA%), not the shared temporary folder: bytecode read from a file runs as code.
// A file is named by the sha1 of the source it was made from, so an edited or rebuilt chunk is a
// miss; V8 itself refuses data made by another version or other flags (then it is made again).
// Files are written at exit, whole (a temporary file renamed), and only for misses.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does node's own.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

/** The folder of this node's cache files, or undefined when the cache is off. */
function cacheFolder(env) {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const home = os.homedir();
  const base =
    process.platform === 'win32' ? (env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
    : process.platform === 'darwin' ? path.join(home, 'Library', 'Caches')
    : env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME
    : path.join(home, '.cache');
  return path.join(base, 'agentmark', 'compile-cache', `${process.version}-${process.arch}`);
}

/**
 * `import(` with an argument, not after a name or a dot (`jiti.import(` is a method, and acorn's
 * message "... in import()" no call); a string or comment naming one also counts: such a chunk is
 * then only compiled without the cache.
 */
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\((?!\s*\))/;

/** Node 20: compiles this folder's chunks through vm.Script with cached data. */
function hookCommonJs(folder, bundleFolder) {
  const vm = require('node:vm');
  const crypto = require('node:crypto');
  const Module = require('node:module');
  const compile = Module.prototype._compile;
  const misses = [];
  Module.prototype._compile = function compileCached(content, filename) {
    // A chunk with a dynamic import() (of chokidar, pg, an installed provider) is compiled by
    // node: import() from a vm.Script needs vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER, which
    // prints an ExperimentalWarning on Node 20. rolldown.config.mjs keeps those imports in small
    // chunks of their own where it matters for start-up.
    if (!filename.startsWith(bundleFolder) || !filename.endsWith('.cjs') || DYNAMIC_IMPORT.test(content)) return compile.call(this, content, filename);
    const file = path.join(folder, `${crypto.createHash('sha1').update(content).digest('hex')}.bin`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    // A first line `#!...` (the CLI's entry) is no JavaScript inside the module wrapper.
    const source = content.startsWith('#!') ? `//${content}` : content;
    const script = new vm.Script(Module.wrap(source), { filename, ...(cachedData === undefined ? {} : { cachedData }) });
    if (cachedData === undefined || script.cachedDataRejected === true) misses.push({ file, script });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return Reflect.apply(wrapper, this.exports, [this.exports, requireOf(this, Module), this, filename, path.dirname(filename)]);
  };
  process.once('exit', () => {
    if (misses.length === 0) return;
    try {
      fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      for (const { file, script } of misses) {
        const temporary = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temporary, script.createCachedData());
        fs.renameSync(temporary, file);
      }
    } catch {
      // A read-only or full disk: the next command compiles again, nothing worse.
    }
  });
}

/** The `require` a CommonJS module gets, as node makes it. */
function requireOf(module, Module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** Turns the cache on for the CLI bundle in `bundleFolder`; never throws (no cache is only slower). */
function enableCompileCache(bundleFolder, env = process.env) {
  try {
    const folder = cacheFolder(env);
    if (folder === undefined) return;
    const Module = require('node:module');
    if (typeof Module.enableCompileCache === 'function') Module.enableCompileCache(folder);
    else hookCommonJs(folder, bundleFolder + path.sep);
  } catch {
    // No home folder: compile as usual.
  }
}

module.exports = { enableCompileCache, cacheFolder };
