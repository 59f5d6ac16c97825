import { readFile } from 'node:fs/promises';
import { overlaidText } from '../source-overlay.js';
import * as path from 'node:path';
import { PromptSyntaxError, type SourceLocation } from '../errors/index.js';
import { scanJson, type PointerPosition } from '../project/json-source-map.js';
import { outsideScope, type PathScope } from '../project/path-scope.js';

/** A JSON document a `$ref` can point into: the prompt's own schema, or a schema file. */
interface SchemaDocument {
  /** Absolute path of the file; for the prompt's own schema, the prompt file. */
  file: string;
  /** Undefined for the prompt's own schema, whose `#/…` references ajv resolves itself. */
  root?: unknown;
  /** Where a `$ref` value at a JSON Pointer is written. */
  locate: (pointer: string) => SourceLocation;
}

export interface SchemaRefContext {
  scope: PathScope;
  /** Every schema file read, for watch mode. */
  files: Set<string>;
}

const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** References inlined per schema: a few files that each refer to the next twice would otherwise grow exponentially. */
const MAX_EXPANSIONS = 10_000;
const HINT_CHAIN = 'break the cycle: a schema inlined from files cannot contain itself (use a "#/definitions/…" reference inside one file for recursive types)';

/**
 * Inlines every `$ref` that names a file (`./address.json`, `../common.json#/definitions/Id`),
 * as AgentMark does: the reference object is replaced by the referenced schema (siblings of
 * `$ref` are dropped), chains are followed, each path resolves relative to the file that
 * writes it, and every file must lie inside the project. Fragment-only references (`#/…`) in
 * the prompt's own schema are left for the validator; inside a schema file they point into
 * that file and are inlined too. URLs (`https://…`) are left as they are.
 */
export async function inlineSchemaRefs(
  schema: unknown,
  prompt: { file: string; locate: (pointer: string) => SourceLocation },
  context: SchemaRefContext,
): Promise<unknown> {
  const documents = new Map<string, Promise<SchemaDocument & { root: unknown }>>();
  const load = (file: string, from: SourceLocation, shown: string) => {
    let loaded = documents.get(file);
    if (loaded === undefined) {
      loaded = readSchemaFile(file, from, shown);
      documents.set(file, loaded);
      context.files.add(file);
    }
    return loaded;
  };

  let expansions = 0;
  async function visit(value: unknown, document: SchemaDocument, pointer: string, chain: readonly string[]): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((item, index) => visit(item, document, `${pointer}/${index}`, chain)));
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const ref = record['$ref'];
    if (typeof ref === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(ref) && !(ref.startsWith('#') && document.root === undefined)) {
      const where = document.locate(`${pointer}/$ref`);
      if (++expansions > MAX_EXPANSIONS) {
        throw new PromptSyntaxError('PROMPT_SCHEMA_REF_TOO_LARGE', `inlining $ref files makes the schema too large (over ${MAX_EXPANSIONS} references)`, {
          location: where,
          hint: 'refer to shared parts with "#/definitions/…" inside one file instead of repeating file references',
        });
      }
      const hash = ref.indexOf('#');
      const filePart = hash < 0 ? ref : ref.slice(0, hash);
      const fragment = hash < 0 ? '' : ref.slice(hash + 1);
      let target: SchemaDocument & { root: unknown };
      if (filePart === '') {
        target = document as SchemaDocument & { root: unknown };
      } else {
        const file = path.resolve(path.dirname(document.file), decodeURIComponent(filePart));
        const outside = outsideScope(context.scope, file, filePart);
        if (outside) throw new PromptSyntaxError('PROMPT_SCHEMA_REF_OUTSIDE', `$ref ${outside.message}`, { location: where, hint: outside.hint });
        target = await load(file, where, ref);
      }
      const key = `${target.file}#${fragment}`;
      if (chain.includes(key)) {
        const names = [...chain, key].map((entry) => shortKey(entry, context.scope.root));
        throw new PromptSyntaxError('PROMPT_SCHEMA_REF_CYCLE', `circular $ref: ${names.join(' -> ')}`, { location: where, hint: HINT_CHAIN });
      }
      const found = resolvePointer(target.root, fragment);
      if (!found.ok) {
        throw new PromptSyntaxError('PROMPT_SCHEMA_REF_FRAGMENT', `$ref "${ref}": ${shortKey(target.file, context.scope.root)} has nothing at #${fragment} (${found.missing})`, {
          location: where,
          hint: 'a fragment is a JSON Pointer into the file, e.g. #/definitions/Address or #/$defs/Address',
        });
      }
      return visit(found.value, target, fragment, [...chain, key]);
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) {
      out[key] = await visit(child, document, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, chain);
    }
    return out;
  }

  return visit(schema, { file: prompt.file, locate: prompt.locate }, '', [`${prompt.file}#`]);
}

async function readSchemaFile(file: string, from: SourceLocation, shown: string): Promise<SchemaDocument & { root: unknown }> {
  let text: string;
  try {
    const open = overlaidText(file);
    const buffer = open === undefined ? await readFile(file) : Buffer.from(open);
    if (buffer.length > MAX_FILE_BYTES) throw Object.assign(new Error('too large'), { code: 'EFBIG' });
    text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PromptSyntaxError('PROMPT_SCHEMA_REF_NOT_FOUND', code === 'ENOENT' ? `$ref "${shown}": no such file ${file}` : `$ref "${shown}": cannot read ${file} (${code ?? String(error)})`, {
      location: from,
      hint: 'a $ref path is relative to the file that writes it (the prompt file for its own frontmatter)',
    });
  }
  const scan = scanJson(text);
  if (!scan.ok) {
    throw new PromptSyntaxError('PROMPT_SCHEMA_REF_INVALID', `schema file is not valid JSON: ${scan.problem.message}`, {
      location: { file, line: scan.problem.line, column: scan.problem.column },
      hint: `referenced by $ref "${shown}"`,
    });
  }
  const pointers: Map<string, PointerPosition> = scan.pointers;
  return {
    file,
    root: JSON.parse(text) as unknown,
    locate: (pointer) => {
      const at = pointers.get(pointer)?.value;
      return at ? { file, line: at.line, column: at.column } : { file };
    },
  };
}

/** RFC 6901 pointer lookup (`/definitions/a~1b`); the empty fragment is the whole document. */
function resolvePointer(root: unknown, fragment: string): { ok: true; value: unknown } | { ok: false; missing: string } {
  if (fragment === '' || fragment === '/') return { ok: true, value: root };
  if (!fragment.startsWith('/')) return { ok: false, missing: 'only JSON Pointer fragments (#/…) are supported' };
  let current = root;
  for (const raw of fragment.slice(1).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return { ok: false, missing: `no "${segment}"` };
    current = (current as Record<string, unknown>)[segment];
  }
  return { ok: true, value: current };
}

function shortKey(key: string, root: string): string {
  const hash = key.indexOf('#');
  const file = hash < 0 ? key : key.slice(0, hash);
  const fragment = hash < 0 ? '' : key.slice(hash + 1);
  const shown = path.relative(root, file) || file;
  return fragment === '' ? shown : `${shown}#${fragment}`;
}
