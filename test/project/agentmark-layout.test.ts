import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveDatasetPath } from '../../src/dataset/index.js';
import { loadProject } from '../../src/project/index.js';
import { makeTempDir } from './temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function temp(files: Record<string, string>) {
  const made = await makeTempDir(files);
  cleanups.push(made.cleanup);
  return made.dir;
}

describe("AgentMark's layout: prompts under <agentmarkPath>/agentmark/", () => {
  it('the prompt root is the agentmark/ folder when agentmarkPath holds one, and agentmarkPath itself otherwise', async () => {
    const scaffold = await temp({ 'agentmark.json': '{"agentmarkPath": "."}', 'agentmark/a.prompt.mdx': '' });
    expect((await loadProject(scaffold)).promptRoot).toBe(path.join(scaffold, 'agentmark'));
    const monorepo = await temp({ 'agentmark.json': '{"agentmarkPath": "packages/ai"}', 'packages/ai/agentmark/a.prompt.mdx': '' });
    expect((await loadProject(monorepo)).promptRoot).toBe(path.join(monorepo, 'packages/ai/agentmark'));
    const ours = await temp({ 'agentmark.json': '{"agentmarkPath": "prompts"}', 'prompts/a.prompt.mdx': '' });
    expect((await loadProject(ours)).promptRoot).toBe(path.join(ours, 'prompts'));
  });

  it('a leading slash in agentmarkPath (older AgentMark docs) is the project root, not the filesystem root', async () => {
    const dir = await temp({ 'agentmark.json': '{"agentmarkPath": "/"}', 'agentmark/a.prompt.mdx': '' });
    expect((await loadProject(dir)).promptRoot).toBe(path.join(dir, 'agentmark'));
    const nested = await temp({ 'agentmark.json': '{"agentmarkPath": "/packages/ai"}', 'packages/ai/x.prompt.mdx': '' });
    expect((await loadProject(nested)).promptRoot).toBe(path.join(nested, 'packages/ai'));
  });

  it('./datasets/x.jsonl resolves from agentmark/ for a prompt in any subfolder of it, as AgentMark resolves it', async () => {
    const dir = await temp({ 'agentmark.json': '{"agentmarkPath": "."}', 'agentmark/datasets/x.jsonl': '{"input":{}}\n', 'agentmark/sub/deep/p.prompt.mdx': '' });
    const project = await loadProject(dir);
    expect(resolveDatasetPath('./datasets/x.jsonl', path.join(dir, 'agentmark/sub/deep/p.prompt.mdx'), project)).toBe(path.join(dir, 'agentmark/datasets/x.jsonl'));
  });
});
