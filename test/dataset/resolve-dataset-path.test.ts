import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/errors/index.js';
import { resolveDatasetPath } from '../../src/dataset/index.js';
import { loadProject, type Project } from '../../src/project/index.js';
import { makeTempDir } from '../project/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setup(files: Record<string, string>): Promise<{ dir: string; project: Project; prompt: string }> {
  const temp = await makeTempDir({
    'agentmark.json': '{ "agentmarkPath": "prompts" }',
    'prompts/chat/chat.prompt.mdx': '---\nname: chat\n---\n',
    ...files,
  });
  cleanups.push(temp.cleanup);
  return { dir: temp.dir, project: await loadProject(temp.dir), prompt: path.join(temp.dir, 'prompts/chat/chat.prompt.mdx') };
}

function thrown(fn: () => unknown): DatasetError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return error as DatasetError;
  }
  throw new Error('expected a DatasetError');
}

describe('resolveDatasetPath', () => {
  it('prefers the prompt file’s folder', async () => {
    const { dir, project, prompt } = await setup({ 'prompts/chat/data.jsonl': '', 'prompts/data.jsonl': '', 'data.jsonl': '' });
    expect(resolveDatasetPath('data.jsonl', prompt, project)).toBe(path.join(dir, 'prompts/chat/data.jsonl'));
  });

  it('then the prompt root (agentmarkPath)', async () => {
    const { dir, project, prompt } = await setup({ 'prompts/datasets/data.jsonl': '', 'datasets/data.jsonl': '' });
    expect(resolveDatasetPath('datasets/data.jsonl', prompt, project)).toBe(path.join(dir, 'prompts/datasets/data.jsonl'));
  });

  it('then the project root', async () => {
    const { dir, project, prompt } = await setup({ 'datasets/data.jsonl': '' });
    expect(resolveDatasetPath('datasets/data.jsonl', prompt, project)).toBe(path.join(dir, 'datasets/data.jsonl'));
  });

  it('accepts an absolute path', async () => {
    const { dir, project, prompt } = await setup({ 'elsewhere/data.jsonl': '' });
    const absolute = path.join(dir, 'elsewhere/data.jsonl');
    expect(resolveDatasetPath(absolute, prompt, project)).toBe(absolute);
  });

  it('names the dataset and every path tried when none exists', async () => {
    const { dir, project, prompt } = await setup({});
    const error = thrown(() => resolveDatasetPath('missing.jsonl', prompt, project));
    expect(error.code).toBe('DATASET_NOT_FOUND');
    expect(error.message).toBe(
      `dataset "missing.jsonl" not found; tried ${[
        path.join(dir, 'prompts/chat/missing.jsonl'),
        path.join(dir, 'prompts/missing.jsonl'),
        path.join(dir, 'missing.jsonl'),
      ].join(', ')}`,
    );
    expect(error.location).toEqual({ file: prompt });
  });

  it('does not take a folder for the dataset', async () => {
    const { project, prompt } = await setup({ 'prompts/chat/dir.jsonl/x': '' , 'dir.jsonl': '' });
    expect(resolveDatasetPath('dir.jsonl', prompt, project)).toBe(path.join(project.root, 'dir.jsonl'));
  });

  it('rejects a path that is not .jsonl', async () => {
    const { project, prompt } = await setup({ 'prompts/chat/data.csv': '' });
    const error = thrown(() => resolveDatasetPath('data.csv', prompt, project));
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'DATASET_NOT_JSONL',
      message: 'dataset "data.csv" must be a .jsonl file',
    });
  });
});
