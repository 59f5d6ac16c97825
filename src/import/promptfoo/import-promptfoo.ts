import { dirname, join } from 'node:path';
import { roleTag } from '../mdx-text.js';
import { evalName, ProjectBuilder, type RowEval } from '../project-builder.js';
import { importMarkdown } from '../report.js';
import { parseLocated, SourceParseError } from '../source-map.js';
import type { ImportResult } from '../types.js';
import { type PromptfooContext, isRecord, str } from './context.js';
import { REFERENCE_ASSERTIONS } from './asserts.js';
import type { Assertion } from './csv-asserts.js';
import { EvalRegistry } from './evals.js';
import { nunjucksToMdx } from './nunjucks.js';
import { readPrompts } from './prompts.js';
import { readProviders } from './providers.js';
import { readTests } from './tests.js';
import { fillTemplate, hasTemplate } from './vars.js';

export interface PromptfooSources {
  /** The config as the user named it (relative to where the command runs). */
  configFile: string;
  read: (file: string) => Promise<string | undefined>;
}

/** Top-level keys that change nothing a run here computes. */
const IGNORED = new Set(['description', 'outputPath', 'sharing', 'evaluateOptions', 'writeLatestResults', 'commandLineOptions', 'tags', 'metadata', '$schema', 'env']);
const HANDLED = new Set(['prompts', 'providers', 'targets', 'tests', 'defaultTest']);

const emptyResult = (): ImportResult => ({ tool: 'promptfoo', files: new Map(), imported: [], leftOut: [], notes: [], prompts: [], readable: true });

/** A promptfoo config (and the files it references) → a project and its report. */
export async function importPromptfoo(sources: PromptfooSources): Promise<ImportResult> {
  const result = emptyResult();
  const file = sources.configFile;
  const text = await sources.read(file);
  if (text === undefined) {
    result.leftOut.push({ what: 'config', from: { file }, why: 'file not found' });
    result.readable = false;
    return result;
  }
  let doc;
  try {
    doc = await parseLocated(text, file);
  } catch (error) {
    const line = error instanceof SourceParseError ? error.line : undefined;
    result.leftOut.push({ what: 'config', from: line === undefined ? { file } : { file, line }, why: `not YAML/JSON: ${error instanceof Error ? error.message : String(error)}` });
    result.readable = false;
    return result;
  }
  if (!isRecord(doc.value)) {
    result.leftOut.push({ what: 'config', from: doc.ref([]), why: 'not a YAML/JSON object of prompts, providers and tests' });
    result.readable = false;
    return result;
  }
  const base = dirname(file);
  const builder = new ProjectBuilder();
  const ctx: PromptfooContext = { builder, result, doc, read: (f) => sources.read(join(base, f)), shown: (f) => join(base, f) };
  const config = doc.value;
  for (const key of Object.keys(config)) {
    if (!IGNORED.has(key) && !HANDLED.has(key)) result.leftOut.push({ what: `config key ${key}`, from: doc.ref([key]), why: 'no counterpart', verbatim: JSON.stringify(config[key], null, 2) });
  }

  const models = readProviders(ctx);
  const registry = new EvalRegistry(ctx, models.toolSchemas);
  const defaultTest = isRecord(config['defaultTest']) ? config['defaultTest'] : {};
  if (config['defaultTest'] !== undefined && !isRecord(config['defaultTest'])) result.leftOut.push({ what: 'defaultTest', from: doc.ref(['defaultTest']), why: 'a defaultTest from a file is not read: inline it' });
  for (const key of Object.keys(defaultTest)) {
    if (!['assert', 'vars', 'options'].includes(key)) result.leftOut.push({ what: `defaultTest key ${key}`, from: doc.ref(['defaultTest', key]), why: 'no counterpart', verbatim: JSON.stringify(defaultTest[key], null, 2) });
  }
  const defaultOptions = isRecord(defaultTest['options']) ? defaultTest['options'] : {};
  const defaultTransform = str(defaultOptions['transform']);
  // A defaultTest assertion whose value reads vars differs per row: it goes on each row instead.
  const perRowDefaults: Array<{ assert: Assertion; from: ReturnType<typeof doc.ref> }> = [];
  (Array.isArray(defaultTest['assert']) ? defaultTest['assert'] : []).forEach((a: unknown, i: number) => {
    const from = doc.ref(['defaultTest', 'assert', i]);
    const assert = (isRecord(a) ? a : {}) as Assertion;
    // So does one whose value is the row's reference (factuality, context-recall).
    if (hasTemplate(assert['value']) || REFERENCE_ASSERTIONS.has(String(assert.type))) perRowDefaults.push({ assert, from });
    else registry.promptEval(defaultTransform === undefined || assert['transform'] !== undefined ? assert : { ...assert, transform: defaultTransform }, from);
  });
  for (const key of Object.keys(defaultOptions)) {
    if (key === 'transform' && defaultTransform !== undefined) continue;
    result.leftOut.push({ what: `defaultTest options.${key}`, from: doc.ref(['defaultTest', 'options', key]), why: key === 'provider' ? 'a grading provider per suite has no counterpart: judges use the run\'s judge model (--judge-model or judgeModel in agentmark.config.ts)' : 'no counterpart', verbatim: JSON.stringify(defaultOptions[key], null, 2) });
  }

  const { tests, source } = await readTests(ctx, isRecord(defaultTest['vars']) ? defaultTest['vars'] : {});
  const perType = new Map<string, number>();
  const rows = tests.map((test) => {
    const taken = new Set<string>();
    const evals: RowEval[] = [];
    const row: Record<string, unknown> = { input: test.vars };
    for (const { assert, from } of [...perRowDefaults, ...test.asserts]) {
      const transform = assert['transform'] ?? test.transform ?? defaultTransform;
      const filled = { ...assert, value: fillTemplate(assert['value'], test.vars), ...(transform === undefined ? {} : { transform }) } as Assertion;
      const made = registry.rowEval(filled, from, taken, row);
      if (made !== undefined) {
        evals.push(made);
        perType.set(String(assert.type), (perType.get(String(assert.type)) ?? 0) + 1);
      }
    }
    if (evals.length > 0) row['evals'] = evals;
    if (test.threshold !== undefined) row['threshold'] = test.threshold;
    if (test.description !== undefined) row['description'] = test.description;
    return row;
  });
  for (const [type, count] of perType) result.imported.push({ what: `${count} test assertion${count === 1 ? '' : 's'} ${type}`, from: { file }, to: 'row evals' });

  const datasetName = evalName(source ?? 'tests', 'tests').replace(/_/g, '-');
  const datasetFile = `datasets/${datasetName}.jsonl`;
  if (rows.length > 0) {
    builder.addDataset(datasetFile, rows);
    result.imported.push({ what: `${rows.length} test${rows.length === 1 ? '' : 's'}`, from: doc.ref(['tests']), to: datasetFile });
  } else result.leftOut.push({ what: 'tests', from: doc.ref(config['tests'] === undefined ? [] : ['tests']), why: 'no tests: the prompts are written without a dataset' });

  const prompts = await readPrompts(ctx);
  const names = new Set<string>();
  for (const prompt of prompts) {
    let name = evalName(prompt.label, 'prompt').replace(/_/g, '-');
    for (let k = 2; names.has(name); k += 1) name = `${evalName(prompt.label, 'prompt').replace(/_/g, '-')}-${k}`;
    names.add(name);
    const problems: string[] = [];
    const body = prompt.messages
      .map((m, i) => {
        const converted = nunjucksToMdx(m.content);
        problems.push(...converted.problems);
        return roleTag(m.role === 'system' && i > 0 ? 'user' : m.role, converted.mdx);
      })
      .join('\n\n');
    const testSettings: Record<string, unknown> = {};
    if (rows.length > 0) testSettings['dataset'] = `../${datasetFile}`;
    if (registry.promptEvals.length > 0) testSettings['evals'] = registry.promptEvals;
    if (models.ids.length > 1) testSettings['models'] = models.ids;
    const promptFile = `prompts/${name}.prompt.mdx`;
    builder.addPrompt({ file: promptFile, frontmatter: { name, text_config: { model_name: models.ids[0] ?? 'openai/gpt-4o-mini', ...models.settings }, test_settings: testSettings }, body });
    result.prompts.push(promptFile);
    result.imported.push({ what: `prompt "${prompt.label}"`, from: prompt.from, to: `${promptFile}${models.ids.length > 1 ? ` × ${models.ids.length} models` : ''}` });
    for (const problem of problems) result.leftOut.push({ what: `prompt "${prompt.label}"`, from: prompt.from, why: `kept as literal text: ${problem}` });
  }
  if (prompts.length === 0) result.leftOut.push({ what: 'prompts', from: doc.ref(['prompts']), why: 'no prompt could be read' });
  if (models.ids.length === 0) result.notes.push({ what: 'providers', from: doc.ref(['providers']), why: 'no provider came over: the prompts use openai/gpt-4o-mini' });
  // A test-set assertion left out is met once per row: report it once.
  const seen = new Set<string>();
  result.leftOut = result.leftOut.filter((issue) => {
    const key = `${issue.from.file}:${issue.from.line ?? ''}:${issue.what}:${issue.why}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  result.files = await builder.render();
  result.files.set('IMPORT.md', importMarkdown(result, [file]));
  return result;
}
