import { parseLocated } from '../source-map.js';
import type { SourceRef } from '../types.js';
import { type PromptfooContext, fileRef, isRecord, str } from './context.js';
import { parseCsv } from './csv.js';
import { type Assertion, csvAssertion } from './csv-asserts.js';
import { expandArrays, inlineVars } from './vars.js';

/** One test case, ready to become a dataset row. */
export interface TestCase {
  vars: Record<string, unknown>;
  asserts: Array<{ assert: Assertion; from: SourceRef }>;
  description?: string;
  threshold?: number;
  /** options.transform: reshapes the output before the test's assertions. */
  transform?: string;
  from: SourceRef;
}

interface RawTest {
  value: Record<string, unknown>;
  /** Where the test and each of its assertions are. */
  from: SourceRef;
  assertRef: (i: number) => SourceRef;
}

/** A CSV file of tests: columns are vars; `__expected…` cells are assertions in promptfoo's shorthand. */
function csvTests(text: string, file: string): RawTest[] {
  const [header, ...records] = parseCsv(text);
  if (header === undefined) return [];
  return records.map((record) => {
    const vars: Record<string, unknown> = {};
    const asserts: Assertion[] = [];
    const test: Record<string, unknown> = { vars };
    header.fields.forEach((column, i) => {
      const cell = record.fields[i] ?? '';
      const name = column.trim();
      if (/^__expected\d*$/.test(name)) {
        if (cell.trim() !== '') asserts.push(csvAssertion(cell));
      } else if (name === '__description') test['description'] = cell;
      else if (name === '__threshold') test['threshold'] = Number(cell);
      else if (name.startsWith('__')) test[name] = cell;
      else vars[name] = cell;
    });
    test['assert'] = asserts;
    return { value: test, from: { file, line: record.line }, assertRef: () => ({ file, line: record.line }) };
  });
}

async function testsFromFile(file: string, from: SourceRef, ctx: PromptfooContext): Promise<RawTest[]> {
  const text = await ctx.read(file);
  const shown = ctx.shown(file);
  if (text === undefined) {
    ctx.result.leftOut.push({ what: `tests ${file}`, from, why: `file not found: ${shown}` });
    return [];
  }
  if (file.endsWith('.csv')) return csvTests(text, shown);
  if (/\.(json|ya?ml|jsonl)$/.test(file)) {
    const lines = file.endsWith('.jsonl') ? text.split('\n').filter((l) => l.trim() !== '') : undefined;
    const doc = await parseLocated(lines ? `[${lines.join(',')}]` : text, shown).catch((error: unknown) => {
      ctx.result.leftOut.push({ what: `tests ${file}`, from, why: `not YAML/JSON: ${error instanceof Error ? error.message : String(error)}` });
      return undefined;
    });
    if (doc === undefined) return [];
    const list = Array.isArray(doc.value) ? doc.value : [];
    return list.flatMap((value, i) => (isRecord(value) ? [{ value, from: lines ? { file: shown, line: i + 1 } : doc.ref([i]), assertRef: (k: number) => (lines ? { file: shown, line: i + 1 } : doc.ref([i, 'assert', k])) }] : []));
  }
  ctx.result.leftOut.push({ what: `tests ${file}`, from, why: 'tests made by code or from sheets are not imported: export them as CSV, YAML or JSON' });
  return [];
}

/** The config's `tests` (inline, file://, lists of both), each expanded over array-valued vars. */
export async function readTests(ctx: PromptfooContext, defaultVars: Record<string, unknown>): Promise<{ tests: TestCase[]; source: string | undefined }> {
  const raw = (ctx.doc.value as Record<string, unknown>)['tests'];
  const entries = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const rawTests: RawTest[] = [];
  let source: string | undefined;
  for (const [i, entry] of entries.entries()) {
    const path = Array.isArray(raw) ? ['tests', i] : ['tests'];
    const from = ctx.doc.ref(path);
    const file = fileRef(entry) ?? (isRecord(entry) && str(entry['path']) ? str(entry['path']) : undefined);
    if (file !== undefined) {
      source ??= file.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
      rawTests.push(...(await testsFromFile(file.replace(/^file:\/\//, ''), from, ctx)));
    } else if (isRecord(entry)) rawTests.push({ value: entry, from, assertRef: (k) => ctx.doc.ref([...path, 'assert', k]) });
    else ctx.result.leftOut.push({ what: `test ${i + 1}`, from, why: 'neither a test nor a file:// reference' });
  }
  const tests: TestCase[] = [];
  for (const t of rawTests) {
    const own = isRecord(t.value['vars']) ? t.value['vars'] : {};
    const asserts = (Array.isArray(t.value['assert']) ? t.value['assert'] : []).map((a: unknown, k: number) => ({ assert: (isRecord(a) ? a : { type: undefined }) as Assertion, from: t.assertRef(k) }));
    // Arrays written in the test expand; a list read from a file:// var is one value (promptfoo's order).
    const testOptions = isRecord(t.value['options']) ? t.value['options'] : {};
    const combos = expandArrays({ ...defaultVars, ...own }, testOptions['disableVarExpansion'] === true);
    if (combos.length > 1) ctx.result.notes.push({ what: 'test vars', from: t.from, why: `array-valued vars expanded into ${combos.length} rows, one per combination, as promptfoo runs them` });
    for (const combo of combos) {
      const test: TestCase = { vars: await inlineVars(combo, t.from, ctx), asserts, from: t.from };
      const description = str(t.value['description']);
      if (description !== undefined) test.description = description;
      if (typeof t.value['threshold'] === 'number') test.threshold = t.value['threshold'];
      const options = isRecord(t.value['options']) ? t.value['options'] : {};
      if (typeof options['transform'] === 'string') test.transform = options['transform'];
      tests.push(test);
    }
    for (const key of Object.keys(t.value)) {
      if (!['vars', 'assert', 'description', 'threshold', 'metadata', 'options'].includes(key)) {
        ctx.result.leftOut.push({ what: `test key ${key}`, from: t.from, why: 'no counterpart in a dataset row', verbatim: JSON.stringify(t.value[key], null, 2) });
      }
    }
    const options = isRecord(t.value['options']) ? t.value['options'] : {};
    for (const key of Object.keys(options)) {
      if ((key === 'transform' && typeof options[key] === 'string') || key === 'disableVarExpansion') continue;
      ctx.result.leftOut.push({ what: `test options.${key}`, from: t.from, why: 'no counterpart', verbatim: JSON.stringify(options[key], null, 2) });
    }
  }
  return { tests, source };
}
