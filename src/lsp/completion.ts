import { dirname } from 'node:path';
import type { CompletionItem, CompletionParams } from 'vscode-languageserver';
import { BUILT_IN_PRICES } from '../model/prices.js';
import { BUILT_IN_TAGS } from '../prompt/index.js';
import { evalCatalog } from './eval-catalog.js';
import { fileKind } from './file-kind.js';
import { keysAt } from './frontmatter-keys.js';
import { uriToPath } from './open-documents.js';
import { filesEndingWith, relativeTo } from './project-files.js';
import { frontmatterOf, propsOf } from './prompt-facts.js';
import type { ServerContext } from './server-context.js';
import { cursorContext, isModelKey } from './yaml-context.js';
import { scorerOptionCompletions } from './json-context.js';
import { rowEvalCompletions } from './dataset-completion.js';

// LSP CompletionItemKind values.
const KIND = { field: 5, value: 12, file: 17, property: 10, keyword: 14, module: 9 } as const;

const markdown = (value: string) => ({ kind: 'markdown' as const, value });

/** Model ids a prompt may name: the project's allowed list, priced models, and the config's providers and prices. */
export function modelIds(context: ServerContext): string[] {
  const { project, config } = context.state;
  return [
    ...new Set([
      ...(project?.builtInModels ?? []),
      ...Object.keys(config?.prices ?? {}),
      ...Object.keys(BUILT_IN_PRICES).map((id) => `openai/${id}`),
      ...Object.keys(config?.providers ?? {}).map((provider) => `${provider}/`),
    ]),
  ];
}

/** The eval names `test_settings.evals` (and a dataset row's `evals`) may bind, with their descriptions. */
function evalCompletions(context: ServerContext): CompletionItem[] {
  return evalCatalog(context.state.project, context.state.config).map((entry, index) => ({
    label: entry.name,
    kind: KIND.value,
    detail: entry.source === 'score' ? `${entry.schema?.type ?? ''} score` : entry.source === 'config' ? 'config scorer' : 'built-in scorer',
    documentation: markdown(entry.documentation),
    // Declared scores first, then the config's, then built-ins.
    sortText: String(index).padStart(4, '0'),
  }));
}

export async function complete(context: ServerContext, params: CompletionParams): Promise<CompletionItem[]> {
  await context.ready();
  const path = uriToPath(params.textDocument.uri);
  const text = context.documents.text(path);
  if (text === undefined) return [];
  if (fileKind(path) === 'project') return scorerOptionCompletions(text, params.position, (name) => context.state.project?.scores[name]?.scorer);
  if (fileKind(path) === 'dataset') return rowEvalCompletions(text, params.position, () => evalCompletions(context));
  if (fileKind(path) !== 'prompt') return [];
  const { line, character } = params.position;
  const cursor = cursorContext(text, line, character);
  const before = (text.split('\n')[line] ?? '').slice(0, character);
  if (cursor.where === 'body') return bodyCompletions(context, path, text, before);
  if (cursor.onKey) {
    return keysAt(cursor.path).map((doc) => ({
      label: doc.key,
      kind: KIND.field,
      insertText: `${doc.key}: `,
      ...(doc.type === undefined ? {} : { detail: doc.type }),
      ...(doc.description === undefined ? {} : { documentation: markdown(doc.description) }),
    }));
  }
  const key = cursor.path[cursor.path.length - 1];
  if (key === 'evals' || key === 'turn_evals') return evalCompletions(context);
  if (key === 'dataset') {
    const root = context.state.project?.root ?? dirname(path);
    return (await filesEndingWith(root, '.jsonl')).map((file) => ({ label: relativeTo(path, file), kind: KIND.file }));
  }
  if (isModelKey(cursor.path)) return modelIds(context).map((id) => ({ label: id, kind: KIND.value }));
  return [];
}

async function bodyCompletions(context: ServerContext, path: string, text: string, before: string): Promise<CompletionItem[]> {
  if (/props\.[\w]*$/.test(before)) {
    const props = await propsOf(context.state, path, await frontmatterOf(path, text));
    return props.map((prop) => ({
      label: prop.name,
      kind: KIND.property,
      ...(prop.schema === undefined ? {} : { detail: JSON.stringify(prop.schema) }),
      ...(prop.examples.length === 0 ? {} : { documentation: markdown(`first rows: ${prop.examples.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`) }),
    }));
  }
  const importPath = /^\s*import\s+\w+\s+from\s+['"]([^'"]*)$/.exec(before);
  if (importPath) {
    const root = context.state.project?.root ?? dirname(path);
    return (await filesEndingWith(root, '.mdx')).filter((file) => file !== path && !file.endsWith('.prompt.mdx')).map((file) => ({ label: relativeTo(path, file), kind: KIND.file }));
  }
  if (/<\/?[A-Za-z]*$/.test(before)) {
    const imported = [...text.matchAll(/^\s*import\s+(\w+)\s+from\s/gm)].map((m) => m[1] ?? '');
    return [...BUILT_IN_TAGS, ...imported].map((tag) => ({ label: tag, kind: imported.includes(tag) ? KIND.module : KIND.keyword }));
  }
  return [];
}
