import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { UsageError } from '../errors/index.js';
import { GITIGNORE_ENTRIES, SCAFFOLD_FILES } from './scaffold-files.js';
import { CONVERSATION_FILES, CONVERSATION_SCORES } from './conversation-files.js';

export interface InitResult {
  /** Files written, relative to the folder, in order. */
  written: string[];
  /** Lines added to .gitignore (created when absent). */
  ignored: string[];
}

/**
 * Writes the starter project into `dir` (created if needed). Refuses, before writing anything,
 * when one of its files already exists, unless `force`; `.gitignore` is never replaced, only
 * given the entries it lacks.
 */
export async function initProject(
  dir: string,
  options: { force?: boolean; /** How to name `dir` in messages. */ shownDir?: string; /** Add the starter conversation (`--conversation`). */ conversation?: boolean } = {},
): Promise<InitResult> {
  const files = options.conversation === true ? withConversation() : SCAFFOLD_FILES;
  const existing: string[] = [];
  for (const [file] of files) {
    if (await exists(path.join(dir, file))) existing.push(file);
  }
  if (existing.length > 0 && options.force !== true) {
    const where = options.shownDir ?? dir;
    const files = existing.map((file) => (where === '' ? file : path.join(where, file)));
    throw new UsageError('USAGE_INIT_EXISTS', `not overwriting what is already there: ${files.join(', ')}`, {
      hint: 'run `agentmark init` in an empty folder, give another folder (`agentmark init my-evals`), or add --force to overwrite these files',
    });
  }
  const written: string[] = [];
  for (const [file, text] of files) {
    const target = path.join(dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    written.push(file);
  }
  return { written, ignored: await extendGitignore(path.join(dir, '.gitignore')) };
}

/** The starter files with the conversation's files, and its score schemas in agentmark.json. */
function withConversation(): ReadonlyArray<readonly [string, string]> {
  const files = SCAFFOLD_FILES.map(([file, text]): readonly [string, string] => {
    if (file !== 'agentmark.json') return [file, text];
    const json = JSON.parse(text) as { scores: Record<string, unknown> };
    json.scores = { ...json.scores, ...CONVERSATION_SCORES };
    return [file, `${JSON.stringify(json, null, 2)}\n`];
  });
  return [...files, ...CONVERSATION_FILES];
}

async function extendGitignore(file: string): Promise<string[]> {
  const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const present = new Set(current.split(/\r?\n/).map((line) => line.trim().replace(/^\//, '')));
  const missing = GITIGNORE_ENTRIES.filter((entry) => !present.has(entry) && !present.has(entry.replace(/\/$/, '')));
  if (missing.length === 0) return [];
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  const heading = current === '' ? '' : '\n';
  await writeFile(file, `${current}${separator}${heading}# agentmark: what runs write, and local secrets\n${missing.join('\n')}\n`);
  return missing;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
