import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageFile } from '../package-paths.js';
import type { IrEsm, IrNode } from './template-ir.js';

/** Bump when the IR's shape or what mdastToIr makes of a body changes. */
const FORMAT = 2;

/** What the MDX parser and mdastToIr make of one body. */
export interface ParsedBody {
  nodes: IrNode[];
  esm: IrEsm[];
}

let stamp: string | undefined;

/**
 * This package's version and its exact dependency pins: a new parser makes every entry a miss,
 * so an entry can never outlive the code that wrote it.
 */
function versionStamp(): string {
  if (stamp === undefined) {
    const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: unknown; dependencies?: unknown };
    stamp = `${FORMAT}\n${String(manifest.version)}\n${JSON.stringify(manifest.dependencies ?? {})}\n`;
  }
  return stamp;
}

/**
 * Parsed prompt bodies on disk, `<dir>/<sha256>.json`, keyed by the exact text the parser sees
 * and the parser's version. A body unchanged since the last command skips the MDX parser, and
 * with it loading unified, remark and micromark (~0.7 MB of code to compile, ~30 ms of every
 * start). Best effort both ways: an unreadable or odd entry is a miss, a failed write is ignored.
 */
export class TemplateCache {
  constructor(readonly dir: string) {}

  key(text: string): string {
    return createHash('sha256').update(versionStamp()).update(text).digest('hex');
  }

  async get(text: string): Promise<ParsedBody | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(join(this.dir, `${this.key(text)}.json`), 'utf8'));
    } catch {
      return undefined;
    }
    const body = parsed as Partial<ParsedBody> | null;
    return body !== null && typeof body === 'object' && Array.isArray(body.nodes) && Array.isArray(body.esm) ? (body as ParsedBody) : undefined;
  }

  /** Stores a parsed body through a temporary file and a rename, so a reader never sees half. */
  async set(text: string, body: ParsedBody): Promise<void> {
    const json = serialize(body);
    if (json === undefined) return;
    const path = join(this.dir, `${this.key(text)}.json`);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(tmp, json);
      await rename(tmp, path);
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}

/**
 * The body as JSON. A regular-expression or BigInt literal's `value` (a RegExp, a bigint) has no
 * JSON form; the evaluator refuses such literals by their `regex` and `bigint` fields, which are
 * kept, so dropping `value` changes nothing it does.
 */
function serialize(body: ParsedBody): string | undefined {
  try {
    return JSON.stringify(body, (key, value: unknown) => (key === 'value' && (value instanceof RegExp || typeof value === 'bigint') ? null : value));
  } catch {
    return undefined;
  }
}
