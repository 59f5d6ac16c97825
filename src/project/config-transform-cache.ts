import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { TransformOptions, TransformResult } from 'jiti';

/** Where a project keeps the transforms, under its store folder (never in node_modules). */
export const CONFIG_CACHE_DIR = join('.agentmark', 'config-cache');

/** Bump when what an entry holds changes. */
const FORMAT = 1;

type TransformInput = TransformOptions;
type TransformOutput = TransformResult;

/** The last line of an entry: the sha256 of everything before it, so a damaged entry is a miss. */
const CHECK_PREFIX = '\n//# agentmark-config-cache ';

let jitiStamp: string | undefined;

/** jiti's exact version: a new jiti may transform differently, so its entries never match old ones. */
function jitiVersion(): string {
  if (jitiStamp === undefined) {
    try {
      const manifest = createRequire(import.meta.url)('jiti/package.json') as { version?: unknown };
      jitiStamp = String(manifest.version);
    } catch {
      jitiStamp = 'unknown';
    }
  }
  return jitiStamp;
}

/**
 * jiti's transform (TypeScript → JavaScript) of the config and of each local file it imports,
 * kept in `<project>/.agentmark/config-cache/<sha256>.js`. The key is the sha256 of the file's
 * exact text, its path, jiti's version and the transform options, so an edit (or a new jiti) is
 * a new key and a stale entry is never read; each entry ends with the sha256 of its own code, so
 * a truncated or damaged one is a miss and is written again. Only the transform is kept: the
 * module is still evaluated afresh every time. Loading Babel and transforming is most of a TS
 * config's load time (~0.4 s measured); a hit needs neither. Best effort: an entry that cannot
 * be written costs only the next load's transform.
 */
export function cachedTransform(dir: string, transform: (input: TransformInput) => TransformOutput): (input: TransformInput) => TransformOutput {
  return (input) => {
    const path = join(dir, `${transformKey(input)}.js`);
    const hit = readEntry(path);
    if (hit !== undefined) return { code: hit };
    const result = transform(input);
    // A syntax error comes back as code that throws it: never kept, so the next load reports it afresh.
    if (result.error === undefined && !result.code.includes('__JITI_ERROR__')) {
      writeEntry(path, result.code);
      // The same file's entries for its earlier texts are never read again: one entry a file.
      removeOthers(dir, `${fileKey(input)}-`, basename(path));
    }
    return result;
  };
}

/** The entry's name: what decides the transform's output. */
export function transformKey(input: TransformInput): string {
  const { source } = input;
  return `${fileKey(input)}-${createHash('sha256').update(source).digest('hex')}`;
}

/** The part of the key that names the file (its path, jiti's version and the options), not its text. */
function fileKey(input: TransformInput): string {
  const { source: _source, ...options } = input;
  return createHash('sha256').update(`${FORMAT}\n${jitiVersion()}\n${JSON.stringify(options)}\n`).digest('hex').slice(0, 32);
}

function readEntry(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const at = text.lastIndexOf(CHECK_PREFIX);
  if (at < 0) return undefined;
  const code = text.slice(0, at);
  return text.slice(at + CHECK_PREFIX.length).trim() === sha256(code) ? code : undefined;
}

/** Written through a temporary file and a rename, so a reader (another process) never sees half. */
function writeEntry(path: string, code: string): void {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(tmp, `${code}${CHECK_PREFIX}${sha256(code)}\n`);
    renameSync(tmp, path);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written
    }
  }
}

function removeOthers(dir: string, prefix: string, keep: string): void {
  try {
    for (const name of readdirSync(dir)) if (name.startsWith(prefix) && name.endsWith('.js') && name !== keep) rmSync(join(dir, name), { force: true });
  } catch {
    // best effort, as the writes are
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
