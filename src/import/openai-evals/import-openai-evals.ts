import { roleTag } from '../mdx-text.js';
import { evalName, ProjectBuilder } from '../project-builder.js';
import { importMarkdown } from '../report.js';
import { parseLocated, SourceParseError, type LocatedDocument } from '../source-map.js';
import type { ImportResult } from '../types.js';
import { type GraderContext, str } from './context.js';
import { inlineItems, modelSettings, toEvalItem, type EvalItem } from './data-source.js';
import { importGrader, mostReferencedField } from './graders.js';
import { contentText, templateToMdx } from './templates.js';

export interface OpenAIEvalsSources {
  /** Files as the user named them, and a reader (undefined: the file does not exist). */
  evalFile: string;
  runFile?: string;
  itemsFile?: string;
  read: (file: string) => Promise<string | undefined>;
}

const emptyResult = (): ImportResult => ({ tool: 'OpenAI Evals', files: new Map(), imported: [], leftOut: [], notes: [], prompts: [], readable: true });

async function readDoc(file: string, sources: OpenAIEvalsSources, result: ImportResult, what: string): Promise<LocatedDocument | undefined> {
  const text = await sources.read(file);
  if (text === undefined) {
    result.leftOut.push({ what, from: { file }, why: 'file not found' });
    return undefined;
  }
  try {
    return await parseLocated(text, file);
  } catch (error) {
    const line = error instanceof SourceParseError ? error.line : undefined;
    result.leftOut.push({ what, from: line === undefined ? { file } : { file, line }, why: `not JSON: ${error instanceof Error ? error.message : String(error)}` });
    return undefined;
  }
}

function readItems(text: string, file: string, result: ImportResult): EvalItem[] {
  const items: EvalItem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      result.leftOut.push({ what: 'item', from: { file, line: i + 1 }, why: 'not JSON' });
      return;
    }
    const item = toEvalItem(value, i + 1);
    if (item === undefined) result.leftOut.push({ what: 'item', from: { file, line: i + 1 }, why: 'not an object' });
    else items.push(item);
  });
  return items;
}

const asText = (value: unknown): unknown => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);

/** An OpenAI Evals definition (+ a run's data source, + items) → a project and its report. */
export async function importOpenAIEvals(sources: OpenAIEvalsSources): Promise<ImportResult> {
  const result = emptyResult();
  const doc = await readDoc(sources.evalFile, sources, result, 'eval definition');
  const spec = (doc?.value ?? undefined) as Record<string, unknown> | undefined;
  if (doc === undefined || spec === undefined || typeof spec !== 'object' || Array.isArray(spec)) {
    if (doc !== undefined) result.leftOut.push({ what: 'eval definition', from: doc.ref([]), why: 'not a JSON object' });
    result.readable = false;
    return result;
  }
  const runDoc = sources.runFile === undefined ? undefined : await readDoc(sources.runFile, sources, result, 'run');
  // A run given with --run wins; an eval file may carry its run's data_source itself.
  const [dsDoc, dataSource] =
    runDoc !== undefined && (runDoc.value as Record<string, unknown> | null)?.['data_source'] !== undefined
      ? [runDoc, (runDoc.value as Record<string, unknown>)['data_source'] as Record<string, unknown>]
      : [doc, (spec['data_source'] ?? undefined) as Record<string, unknown> | undefined];
  const builder = new ProjectBuilder();
  const criteria = Array.isArray(spec['testing_criteria']) ? spec['testing_criteria'] : [];
  if (criteria.length === 0) result.leftOut.push({ what: 'testing_criteria', from: doc.ref(['testing_criteria']), why: 'no graders found' });
  const ctx: GraderContext = { builder, result, doc, expectedField: mostReferencedField(criteria) };
  const evals = criteria.flatMap((grader, i) => importGrader(grader, ['testing_criteria', i], ctx) ?? []);

  const name = evalName(str(spec['name']) ?? '', 'imported_eval').replace(/_/g, '-');
  const promptFile = `prompts/${name}.prompt.mdx`;
  const datasetFile = `datasets/${name}.jsonl`;
  let items: EvalItem[] | undefined;
  if (sources.itemsFile !== undefined) {
    const text = await sources.read(sources.itemsFile);
    if (text === undefined) result.leftOut.push({ what: 'items', from: { file: sources.itemsFile }, why: 'file not found' });
    else items = readItems(text, sources.itemsFile, result);
  } else if (dataSource !== undefined) {
    items = inlineItems(dataSource['source'], dsDoc, ['data_source', 'source'], result);
  }
  if (items === undefined && sources.itemsFile === undefined && !result.leftOut.some((i) => i.what.startsWith('data source file'))) {
    result.leftOut.push({ what: 'items', from: doc.ref(['data_source_config']), why: 'no items: give them with --items items.jsonl (one {"item": {...}} per line), or a run whose source is file_content' });
  }

  const config = (spec['data_source_config'] ?? {}) as Record<string, unknown>;
  const frontmatter: Record<string, unknown> = { name, text_config: modelSettings(dataSource ?? {}) };
  if (dataSource?.['model'] === undefined) result.notes.push({ what: 'model', from: dsDoc.ref(['data_source']), why: 'no run gave a model: the prompt uses openai/gpt-4o-mini' });
  const testSettings: Record<string, unknown> = { evals };
  if (items !== undefined && items.length > 0) testSettings['dataset'] = `../${datasetFile}`;
  frontmatter['test_settings'] = testSettings;
  const schema = config['item_schema'];
  if (schema !== null && typeof schema === 'object') {
    frontmatter['input_schema'] = schema;
    result.imported.push({ what: 'data_source_config.item_schema', from: doc.ref(['data_source_config', 'item_schema']), to: `input_schema of ${promptFile}` });
  } else if (config['type'] !== undefined && config['type'] !== 'custom') {
    result.leftOut.push({ what: `data_source_config (${String(config['type'])})`, from: doc.ref(['data_source_config']), why: 'logs and stored completions live at OpenAI; export them as items and pass --items' });
  }

  builder.addPrompt({ file: promptFile, frontmatter, body: promptBody(dataSource, dsDoc, result, items) });
  result.prompts.push(promptFile);
  if (items !== undefined && items.length > 0) {
    const rows = items.map((it) => {
      const row: Record<string, unknown> = { input: it.item };
      const expected = ctx.expectedField === undefined ? undefined : it.item[ctx.expectedField];
      if (expected !== undefined) row['expected_output'] = asText(expected);
      if (it.outputText !== undefined) row['output'] = it.outputText;
      return row;
    });
    builder.addDataset(datasetFile, rows);
    result.imported.push({ what: `${rows.length} item${rows.length === 1 ? '' : 's'}`, from: { file: sources.itemsFile ?? dsDoc.file }, to: `${datasetFile}${ctx.expectedField ? ` (item.${ctx.expectedField} as expected_output)` : ''}` });
  }
  result.files = await builder.render();
  result.files.set('IMPORT.md', importMarkdown(result, [sources.evalFile, sources.runFile, sources.itemsFile].flatMap((f) => (f === undefined ? [] : [f]))));
  return result;
}

/** The run's input_messages as role tags; without them, a placeholder that lists the item's fields. */
function promptBody(dataSource: Record<string, unknown> | undefined, doc: LocatedDocument, result: ImportResult, items: EvalItem[] | undefined): string {
  const input = (dataSource?.['input_messages'] ?? undefined) as { type?: unknown; template?: unknown; item_reference?: unknown } | undefined;
  const path = ['data_source', 'input_messages'];
  if (input?.type === 'template' && Array.isArray(input.template)) {
    const parts: string[] = [];
    const unknown: string[] = [];
    input.template.forEach((message: unknown, i: number) => {
      const m = (message ?? {}) as { role?: unknown; content?: unknown };
      const text = contentText(m.content);
      const role = m.role === 'system' || m.role === 'developer' ? (parts.length === 0 ? 'system' : 'user') : m.role === 'assistant' ? 'assistant' : 'user';
      if (text === undefined) {
        result.leftOut.push({ what: `input message ${i}`, from: doc.ref([...path, 'template', i]), why: 'content that is not text (images, audio) is not imported', verbatim: JSON.stringify(message, null, 2) });
        return;
      }
      parts.push(roleTag(role, templateToMdx(text, 'prompt', unknown)));
    });
    result.imported.push({ what: `input_messages (${parts.length} message${parts.length === 1 ? '' : 's'})`, from: doc.ref(path), to: 'role tags' });
    if (unknown.length > 0) result.leftOut.push({ what: 'input_messages', from: doc.ref(path), why: `no counterpart, kept as literal text: ${[...new Set(unknown)].join(', ')}` });
    if (parts.length > 0) return parts.join('\n\n');
  } else if (input?.type === 'item_reference') {
    result.leftOut.push({ what: 'input_messages (item_reference)', from: doc.ref(path), why: `each item holds its own messages (${String(input.item_reference)}); a prompt's messages are fixed: write them as role tags` });
  } else {
    result.leftOut.push({ what: 'input_messages', from: doc.ref(dataSource === undefined ? [] : path), why: 'no run with input_messages (pass --run run.json): the prompt is a placeholder that lists the item fields' });
  }
  const fields = Object.keys(items?.[0]?.item ?? {});
  const lines = fields.length > 0 ? fields.map((f) => `${f}: {props.${/^[A-Za-z_$][\w$]*$/.test(f) ? f : `['${f}']`}}`) : ['{props.input}'];
  return roleTag('user', lines.join('\n'));
}
