import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { experimentKeyOf } from '../../src/otel/experiment-key.js';
import type { RunManifest } from '../../src/store/types.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-experiment-key-'));
  await mkdir(join(dir, 'prompts'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const manifest = { id: 'r1', prompt: { path: 'prompts/p.prompt.mdx', hash: 'h', name: 'p' } } as unknown as RunManifest;

describe('experimentKeyOf', () => {
  it('reads test_settings.experiment_key the way a prompt is loaded, trailing spaces after --- included', async () => {
    await writeFile(join(dir, 'prompts/p.prompt.mdx'), '--- \ntest_settings:\n  experiment_key: exp-7\n---  \n\n<User>hi</User>\n');
    expect(await experimentKeyOf(dir, manifest)).toBe('exp-7');
  });

  it('is undefined without a key or without a readable prompt: never a failed export', async () => {
    await writeFile(join(dir, 'prompts/p.prompt.mdx'), '---\nname: p\n---\n');
    expect(await experimentKeyOf(dir, manifest)).toBeUndefined();
    await rm(join(dir, 'prompts/p.prompt.mdx'));
    expect(await experimentKeyOf(dir, manifest)).toBeUndefined();
  });
});
