import { basename } from 'node:path';
import { CONFIG_FILES, PROJECT_FILE } from '../project/index.js';

/** What the server does with a file, by its name alone. */
export type FileKind = 'prompt' | 'project' | 'config' | 'dataset' | 'component' | 'other';

export function fileKind(path: string): FileKind {
  const name = basename(path);
  if (name.endsWith('.prompt.mdx')) return 'prompt';
  if (name === PROJECT_FILE) return 'project';
  if (CONFIG_FILES.includes(name)) return 'config';
  if (name.endsWith('.jsonl')) return 'dataset';
  if (name.endsWith('.mdx')) return 'component';
  return 'other';
}
