import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { flattenErrors, isAgentmarkError } from '../../src/errors/index.js';
import { loadPrompt, type LoadedPrompt, type LoadPromptOptions } from '../../src/prompt/index.js';

export const FRONTMATTER = '---\nname: test\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n';

/** Writes files into a fresh temp folder; returns the folder. */
export async function writeFiles(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prompt-test-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** Loads `main.prompt.mdx` made of the standard frontmatter and this body (plus extra files). */
export async function loadBody(body: string, extra: Record<string, string> = {}, options?: LoadPromptOptions): Promise<LoadedPrompt> {
  const dir = await writeFiles({ 'main.prompt.mdx': FRONTMATTER + body, ...extra });
  return loadPrompt(join(dir, 'main.prompt.mdx'), options);
}

/** The messages' contents, for exact comparisons. */
export async function renderBody(body: string, props: Record<string, unknown> = {}, extra: Record<string, string> = {}): Promise<unknown[]> {
  const prompt = await loadBody(body, extra);
  return prompt.render(props).messages?.map((m) => m.content) ?? [];
}

/** An error as the CLI prints it, with the folder dropped: `file:line:col: message` (+ hint line). */
export function describeError(error: unknown): string[] {
  if (!isAgentmarkError(error)) throw error;
  return flattenErrors(error).map((e) => {
    const where = e.location ? [basename(e.location.file), e.location.line, e.location.column].filter((p) => p !== undefined).join(':') : '';
    return `${e.code} ${where}: ${e.message}${e.hint ? ` | hint: ${e.hint}` : ''}`;
  });
}

export async function loadError(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    return describeError(error);
  }
  throw new Error('expected an error');
}

export function renderError(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    return describeError(error);
  }
  throw new Error('expected an error');
}
