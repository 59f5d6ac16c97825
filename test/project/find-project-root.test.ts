import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { findProjectRoot } from '../../src/project/index.js';
import { makeTempDir } from './temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('findProjectRoot', () => {
  it('walks up from a nested folder to the one holding agentmark.json', async () => {
    const temp = await makeTempDir({ 'agentmark.json': '{}', 'prompts/deep/er/x.txt': '' });
    cleanups.push(temp.cleanup);
    expect(await findProjectRoot(path.join(temp.dir, 'prompts/deep/er'))).toBe(temp.dir);
    expect(await findProjectRoot(temp.dir)).toBe(temp.dir);
  });

  it('stops at the nearest agentmark.json', async () => {
    const temp = await makeTempDir({ 'agentmark.json': '{}', 'inner/agentmark.json': '{}', 'inner/a/b.txt': '' });
    cleanups.push(temp.cleanup);
    expect(await findProjectRoot(path.join(temp.dir, 'inner/a'))).toBe(path.join(temp.dir, 'inner'));
  });

  it('throws CONFIG_NOT_FOUND naming the start folder when there is none', async () => {
    const temp = await makeTempDir({ 'a/b.txt': '' });
    cleanups.push(temp.cleanup);
    const start = path.join(temp.dir, 'a');
    const error = await findProjectRoot(start).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const configError = error as ConfigError;
    expect(configError.code).toBe('CONFIG_NOT_FOUND');
    expect(configError.message).toBe(`no agentmark.json found in ${start} or any folder above it`);
    expect(configError.hint).toContain('`agentmark init`');
    expect(configError.hint).toContain('--project <dir>');
  });
});
