import type { LocatedDocument } from '../source-map.js';
import type { ImportResult } from '../types.js';
import { openaiModel, str } from './context.js';

/** One row of an eval's data: the item, and the model's answer when the data carries one. */
export interface EvalItem {
  item: Record<string, unknown>;
  outputText?: string;
  line?: number;
}

/** `{ item, sample? }` (the file_content / JSONL shape) or a bare object, which is the item. */
export function toEvalItem(value: unknown, line?: number): EvalItem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const wrapped = record['item'] !== null && typeof record['item'] === 'object' && !Array.isArray(record['item']);
  const item = (wrapped ? record['item'] : record) as Record<string, unknown>;
  const sample = record['sample'] as { output_text?: unknown } | undefined;
  const out: EvalItem = { item };
  if (wrapped && typeof sample?.output_text === 'string') out.outputText = sample.output_text;
  if (line !== undefined) out.line = line;
  return out;
}

/** Items given inline in a run's data source (`source.type: file_content`). */
export function inlineItems(source: unknown, doc: LocatedDocument, path: Array<string | number>, result: ImportResult): EvalItem[] | undefined {
  const s = (source ?? {}) as { type?: unknown; content?: unknown; id?: unknown };
  if (s.type === 'file_content' && Array.isArray(s.content)) {
    return s.content.flatMap((value, i) => {
      const item = toEvalItem(value, doc.ref([...path, 'content', i]).line);
      return item === undefined ? [] : [item];
    });
  }
  if (s.type === 'file_id') {
    result.leftOut.push({ what: `data source file ${str(s.id) ?? ''}`, from: doc.ref(path), why: 'items stored at OpenAI are not downloaded; save the file and pass it with --items' });
  }
  return undefined;
}

/** The prompt's model settings from a run's data source: model, temperature, token cap, top_p, seed. */
export function modelSettings(dataSource: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  const model = str(dataSource['model']);
  settings['model_name'] = model === undefined ? 'openai/gpt-4o-mini' : openaiModel(model);
  const sampling = (dataSource['sampling_params'] ?? {}) as Record<string, unknown>;
  if (typeof sampling['temperature'] === 'number') settings['temperature'] = sampling['temperature'];
  const cap = sampling['max_completion_tokens'] ?? sampling['max_completions_tokens'] ?? sampling['max_tokens'];
  if (typeof cap === 'number') settings['max_tokens'] = cap;
  if (typeof sampling['top_p'] === 'number') settings['top_p'] = sampling['top_p'];
  if (typeof sampling['seed'] === 'number') settings['seed'] = sampling['seed'];
  return settings;
}
