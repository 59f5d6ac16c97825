import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { loadProject } from '../../src/project/index.js';
import { makeTempDir } from './temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function project(cache: unknown): Promise<string> {
  const json = `{\n  "version": "2.0.0",\n  "store": "postgres://agentmark@db.internal:5432/evals",\n  "cache": ${JSON.stringify(cache)}\n}\n`;
  const temp = await makeTempDir({ 'agentmark.json': json });
  cleanups.push(temp.cleanup);
  return temp.dir;
}

describe('cache in agentmark.json (schema/agentmark.schema.json)', () => {
  it('"store" and "local" validate', async () => {
    for (const value of ['store', 'local']) expect((await loadProject(await project(value))).file['cache']).toBe(value);
  });

  it('another value is a config error located at the value, naming the allowed ones, with a hint', async () => {
    const dir = await project('shared');
    const error = await loadProject(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'CONFIG_SCHEMA',
      message: '/cache must be one of "local", "store" (got "shared")',
      location: { file: path.join(dir, 'agentmark.json'), line: 4, column: 12 },
      hint: '"store" shares the response cache through the team store (it needs "store" or AGENTMARK_STORE_URL); "local" (the default) keeps it in .agentmark/cache/',
    });
  });

  it('a value of another type is refused the same way', async () => {
    const error = await loadProject(await project(true)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONFIG_SCHEMA', message: '/cache must be one of "local", "store" (got true)', location: { line: 4, column: 12 } });
  });
});
