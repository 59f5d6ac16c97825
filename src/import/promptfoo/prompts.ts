import { parseLocated } from '../source-map.js';
import { type PromptfooContext, fileRef, isRecord, str } from './context.js';
import type { SourceRef } from '../types.js';

/** One prompt as promptfoo would send it: plain text (one user message) or chat messages. */
export interface PromptSource {
  label: string;
  from: SourceRef;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
}

/** A prompt string that is a JSON list of { role, content } is a chat prompt. */
function chatMessages(text: string): PromptSource['messages'] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return undefined;
  try {
    const value = JSON.parse(trimmed) as unknown;
    if (!Array.isArray(value)) return undefined;
    const messages = value.map((m) => (isRecord(m) && typeof m['content'] === 'string' && ['system', 'user', 'assistant'].includes(String(m['role'])) ? { role: m['role'] as 'system' | 'user' | 'assistant', content: m['content'] } : undefined));
    return messages.every((m) => m !== undefined) ? (messages as PromptSource['messages']) : undefined;
  } catch {
    return undefined;
  }
}

function fromText(text: string, label: string, from: SourceRef): PromptSource {
  return { label, from, messages: chatMessages(text) ?? [{ role: 'user', content: text }] };
}

/**
 * The config's `prompts`: inline strings, `file://` text files (split on `---` lines, as promptfoo
 * does), JSON/YAML chat files, and `{ id | raw, label }` objects. Code prompts (.js, .py) and
 * globs are reported, not imported.
 */
export async function readPrompts(ctx: PromptfooContext): Promise<PromptSource[]> {
  const raw = ctx.doc.value as Record<string, unknown>;
  const list = raw['prompts'] === undefined ? [] : Array.isArray(raw['prompts']) ? raw['prompts'] : [raw['prompts']];
  const out: PromptSource[] = [];
  for (const [i, entry] of list.entries()) {
    const from = ctx.doc.ref(Array.isArray(raw['prompts']) ? ['prompts', i] : ['prompts']);
    const record = isRecord(entry) ? entry : undefined;
    const value = record ? (str(record['raw']) ?? str(record['id'])) : str(entry);
    const label = (record ? str(record['label']) : undefined) ?? `prompt ${i + 1}`;
    if (value === undefined) {
      ctx.result.leftOut.push({ what: `prompt ${i + 1}`, from, why: 'neither a string nor { raw | id, label }', verbatim: JSON.stringify(entry, null, 2) });
      continue;
    }
    const file = record && str(record['raw']) !== undefined ? undefined : fileRef(value);
    if (file === undefined) {
      out.push(fromText(value, label, from));
      continue;
    }
    const [path, fn] = file.split(':');
    if (/[*?]/.test(file) || /\.(m?[jt]s|py|cjs)$/.test(path ?? '') || fn !== undefined) {
      ctx.result.leftOut.push({ what: `prompt ${value}`, from, why: /[*?]/.test(file) ? 'globs are not expanded: list the files' : 'prompts made by code (JavaScript, Python) are not imported: write the messages as a .prompt.mdx' });
      continue;
    }
    const text = await ctx.read(path ?? file);
    if (text === undefined) {
      ctx.result.leftOut.push({ what: `prompt ${value}`, from, why: `file not found: ${ctx.shown(path ?? file)}` });
      continue;
    }
    const fileLabel = (record ? str(record['label']) : undefined) ?? (path ?? file).replace(/^.*\//, '').replace(/\.[^.]+$/, '');
    if (/\.(json|ya?ml)$/.test(path ?? '')) {
      const doc = await parseLocated(text, ctx.shown(path ?? file)).catch(() => undefined);
      const messages = doc === undefined ? undefined : chatMessages(JSON.stringify(doc.value));
      if (messages === undefined) ctx.result.leftOut.push({ what: `prompt ${value}`, from, why: 'a JSON/YAML prompt must be a list of { role, content } messages' });
      else out.push({ label: fileLabel, from: { file: ctx.shown(path ?? file), line: 1 }, messages });
      continue;
    }
    const parts = text.split(/^-{3,}\s*$/m).filter((p) => p.trim() !== '');
    parts.forEach((part, k) => out.push(fromText(part.trim(), parts.length > 1 ? `${fileLabel} ${k + 1}` : fileLabel, { file: ctx.shown(path ?? file), line: 1 })));
  }
  return out;
}
