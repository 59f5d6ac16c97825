import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { loadProject } from '../../src/project/index.js';
import { makeTempDir } from './temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function project(replayDir: unknown, files: Record<string, string> = {}) {
  const json = `{\n  "version": "2.0.0",\n  "replayDir": ${JSON.stringify(replayDir)}\n}\n`;
  const temp = await makeTempDir({ 'agentmark.json': json, ...files });
  cleanups.push(temp.cleanup);
  return temp.dir;
}

async function loadError(dir: string): Promise<ConfigError> {
  const error = await loadProject(dir).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('replayDir in agentmark.json', () => {
  it('resolves to an absolute folder next to agentmark.json; absent, there is none', async () => {
    const dir = await project('fixtures/responses', { 'fixtures/responses/README.md': 'recorded answers\n' });
    expect((await loadProject(dir)).replayDir).toBe(path.join(dir, 'fixtures', 'responses'));
    const plain = await makeTempDir({ 'agentmark.json': '{"version": "2.0.0"}' });
    cleanups.push(plain.cleanup);
    expect((await loadProject(plain.dir)).replayDir).toBeUndefined();
  });

  it('a folder that does not exist is a config error at the value, with a hint', async () => {
    const dir = await project('fixtures/responses');
    const error = await loadError(dir);
    expect(error.code).toBe('CONFIG_REPLAY_DIR_NOT_FOUND');
    expect(error.message).toBe(`/replayDir "fixtures/responses" is not a folder (${path.join(dir, 'fixtures', 'responses')})`);
    expect(error.location).toEqual({ file: path.join(dir, 'agentmark.json'), line: 3, column: 16 });
    expect(error.hint).toMatch(/^point replayDir at the committed folder of recorded answers/);
  });

  it('a file is not a folder', async () => {
    const error = await loadError(await project('answers.jsonl', { 'answers.jsonl': '' }));
    expect(error.code).toBe('CONFIG_REPLAY_DIR_NOT_FOUND');
  });

  it('the live cache, which every run writes, cannot be the replay folder', async () => {
    const dir = await project('./.agentmark/cache', { '.agentmark/cache/0.jsonl': '' });
    const error = await loadError(dir);
    expect(error.code).toBe('CONFIG_REPLAY_DIR_IS_CACHE');
    expect(error.message).toBe('/replayDir "./.agentmark/cache" is the live response cache, which every run writes');
    expect(error.location?.line).toBe(3);
  });

  it('must be a non-empty string', async () => {
    for (const value of ['', 42]) {
      const error = await loadError(await project(value));
      expect(error.code).toBe('CONFIG_SCHEMA');
      expect(error.message).toMatch(/^\/replayDir /);
    }
  });
});
