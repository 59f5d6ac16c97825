import { readFileSync } from 'node:fs';
import { packageFile } from '../package-paths.js';
import { knownFrontmatterKeys } from '../prompt/index.js';

export interface KeyDoc {
  key: string;
  /** From the published frontmatter schema; AgentMark's own keys may have none. */
  description?: string;
  type?: string;
}

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
}

let schema: (SchemaNode & { definitions?: Record<string, SchemaNode> }) | undefined;

function frontmatterSchema(): SchemaNode & { definitions?: Record<string, SchemaNode> } {
  schema ??= JSON.parse(readFileSync(packageFile('schema', 'prompt-frontmatter.schema.json'), 'utf8')) as SchemaNode;
  return schema;
}

function deref(node: SchemaNode | undefined): SchemaNode | undefined {
  const name = node?.$ref?.replace('#/definitions/', '');
  return name === undefined ? node : frontmatterSchema().definitions?.[name];
}

/**
 * The keys a frontmatter mapping may hold at `path`, with their documentation: the published
 * frontmatter schema (which the loader validates against) and the keys the loader knows for
 * each block (so a key added to either is offered here).
 */
export function keysAt(path: readonly string[]): KeyDoc[] {
  let node: SchemaNode | undefined = frontmatterSchema();
  for (const key of path) node = deref(deref(node)?.properties?.[key]);
  const properties = deref(node)?.properties ?? {};
  const docs = new Map<string, KeyDoc>();
  for (const [key, child] of Object.entries(properties)) {
    const resolved = deref(child);
    const type = Array.isArray(resolved?.type) ? resolved.type.join(' | ') : resolved?.type;
    docs.set(key, { key, ...(resolved?.description === undefined ? {} : { description: resolved.description }), ...(type === undefined ? {} : { type }) });
  }
  if (path.length === 1) for (const key of knownFrontmatterKeys().get(path[0] ?? '') ?? []) if (!docs.has(key)) docs.set(key, { key });
  return [...docs.values()];
}
