import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const COMPONENT = 'Answer with the word only.\n';
const PROMPT = `---
name: kept
text_config:
  model_name: openai/gpt-4o-mini
  temperature: 0
test_settings:
  dataset: ../datasets/words.jsonl
  evals: [exact]
---
import Rule from './parts/rule.mdx'

<System>Repeat the word. <Rule /></System>

<User>{props.word}</User>
`;

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject({ 'prompts/kept.prompt.mdx': PROMPT, 'prompts/parts/rule.mdx': COMPONENT });
}, 30_000);
afterAll(async () => {
  await server?.close();
  await project?.cleanup();
});

async function manifestOf(id: string): Promise<Record<string, unknown>> {
  return JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as Record<string, unknown>;
}

describe('runs keep what made them', () => {
  it('stores the prompt and its component once however many runs use them, and the config and dataset hashes', async () => {
    for (let i = 0; i < 3; i++) {
      const result = await project.run(['run-experiment', 'prompts/kept.prompt.mdx', '--quiet', '--format', 'jsonl'], { server });
      expect(result.stderr).toBe('');
    }
    const ids = await project.runIds();
    expect(ids).toHaveLength(3);
    const blobs = (await readdir(join(project.dir, '.agentmark', 'blobs'))).sort();
    expect(blobs).toEqual([sha256(PROMPT), sha256(COMPONENT)].sort());
    expect(await readFile(join(project.dir, '.agentmark', 'blobs', sha256(COMPONENT)), 'utf8')).toBe(COMPONENT);
    const config = [await project.read('agentmark.json'), await project.read('agentmark.config.ts')];
    for (const id of ids) {
      const manifest = await manifestOf(id);
      expect(manifest['provenance']).toEqual({
        files: [
          { path: 'prompts/kept.prompt.mdx', hash: sha256(PROMPT) },
          { path: 'prompts/parts/rule.mdx', hash: sha256(COMPONENT) },
        ],
        config: [
          { path: 'agentmark.json', hash: sha256(config[0] as string) },
          { path: 'agentmark.config.ts', hash: sha256(config[1] as string) },
        ],
      });
      expect(manifest['dataset']).toEqual({ path: 'datasets/words.jsonl', hash: sha256(await project.read('datasets/words.jsonl')) });
      expect(manifest['settings']).toEqual({ temperature: 0 });
    }
  });
});
