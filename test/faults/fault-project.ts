import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempProject } from '../helpers/temp-project.js';

export const KEY = 'sk-test-SECRET-123';

/** A project with one echo prompt over `rows` rows, scored by exact_match (the echo server passes it). */
export function faultProject(rows: number): ReturnType<typeof tempProject> {
  const dataset = Array.from({ length: rows }, (_, i) => JSON.stringify({ input: { q: `question ${i}` }, expected_output: `question ${i}` })).join('\n');
  return tempProject({
    'agentmark.json': JSON.stringify({
      version: '2.0.0',
      mdxVersion: '1.0',
      agentmarkPath: '.',
      scores: { exact: { type: 'boolean', scorer: 'exact_match' } },
    }),
    'prompts/echo.prompt.mdx':
      '---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: echo.jsonl\n  evals: [exact]\n---\n<User>{props.q}</User>\n',
    'prompts/echo.jsonl': `${dataset}\n`,
  });
}

export interface StoredRow {
  index: number;
  repeat: number;
  retries?: number;
  error?: string;
  errorCode?: string;
  output?: unknown;
  evals?: Record<string, unknown>;
}

export async function runIds(dir: string): Promise<string[]> {
  try {
    return (await readdir(join(dir, '.agentmark', 'runs'))).sort();
  } catch {
    return [];
  }
}

/**
 * Parses results.jsonl the strict way: every newline-terminated line must be a JSON row; only
 * an unterminated last line (a kill mid-write) may be torn. Returns the rows and whether a torn tail was seen.
 */
export async function readResults(dir: string, runId: string): Promise<{ rows: StoredRow[]; tornTail: boolean }> {
  let text: string;
  try {
    text = await readFile(join(dir, '.agentmark', 'runs', runId, 'results.jsonl'), 'utf8');
  } catch {
    return { rows: [], tornTail: false };
  }
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const rows = parts.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as StoredRow);
  return { rows, tornTail: last !== '' };
}

export async function readManifest(dir: string, runId: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(dir, '.agentmark', 'runs', runId, 'manifest.json'), 'utf8')) as Record<string, unknown>;
}

/** Every file under `root`, recursively. */
export async function allFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...(await allFiles(path)));
    else found.push(path);
  }
  return found;
}
