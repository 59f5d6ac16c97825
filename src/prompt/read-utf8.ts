import { readFile } from 'node:fs/promises';
import { PromptSyntaxError } from '../errors/index.js';
import { overlaidText } from '../source-overlay.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a prompt or component file as strict UTF-8: bytes that are not UTF-8 are an error
 * naming the line, as they are in datasets, instead of silently becoming U+FFFD.
 * File-system errors are passed through for the caller to word.
 */
export async function readUtf8File(file: string): Promise<string> {
  const open = overlaidText(file);
  if (open !== undefined) return open;
  const bytes = await readFile(file);
  try {
    return strict.decode(bytes);
  } catch {
    throw new PromptSyntaxError('PROMPT_NOT_UTF8', 'file is not valid UTF-8', {
      location: { file, line: firstBadLine(bytes) },
      hint: 'save the file as UTF-8',
    });
  }
}

/** 1-based number of the first line that does not decode (`\n` never occurs inside a UTF-8 sequence). */
function firstBadLine(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strict.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line += 1;
    start = i + 1;
  }
  return line;
}
