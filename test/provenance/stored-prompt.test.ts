import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TemplateError } from '../../src/errors/index.js';
import { loadProject } from '../../src/project/index.js';
import { loadPrompt } from '../../src/prompt/index.js';
import { loadStoredPrompt, snapshotRun } from '../../src/provenance/index.js';
import { BlobStore, type RunManifest } from '../../src/store/index.js';
import { tempProject } from '../helpers/temp-project.js';

// The project is `<tmp>/app`; a component lives outside it, in `<tmp>/shared`, allowed by allowedPaths.
const FILES = {
  'app/agentmark.json': JSON.stringify({ agentmarkPath: '.', allowedPaths: ['../shared'] }),
  'app/prompts/greet.prompt.mdx': `---
name: greet
text_config:
  model_name: openai/gpt-4o-mini
input_schema:
  type: object
  properties:
    who: { $ref: './who.schema.json' }
    n: { type: integer }
---
import Tone from '../../shared/tone.mdx'
import Sign from './parts/sign.mdx'

<System><Tone /> <Sign /></System>

<User>Hello {props.who.name}, {truncate(props.who.name, props.n)}</User>
`,
  'app/prompts/who.schema.json': '{ "type": "object", "properties": { "name": { "type": "string" } } }',
  'app/prompts/parts/sign.mdx': 'Sign as Ada.\n',
  'shared/tone.mdx': 'Be kind.\n',
};

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeEach(async () => {
  tmp = await tempProject(FILES);
  root = join(tmp.dir, 'app');
});
afterEach(() => tmp.cleanup());

async function runManifest(): Promise<RunManifest> {
  const project = await loadProject(root);
  const prompt = await loadPrompt(join(root, 'prompts/greet.prompt.mdx'), { project });
  const provenance = await snapshotRun({ projectRoot: root, prompt, projectFile: project.configPath, configFile: undefined });
  return {
    id: 'run-1',
    prompt: { path: 'prompts/greet.prompt.mdx', hash: provenance.files[0]?.hash ?? '', name: 'greet' },
    model: 'openai/gpt-4o-mini',
    settings: {},
    options: {},
    startedAt: '2026-12-01T00:00:00.000Z',
    status: 'completed',
    provenance,
  };
}

describe('loadStoredPrompt', () => {
  it('renders as the run did after every file changed, a component outside the root and a $ref schema included', async () => {
    const manifest = await runManifest();
    expect(manifest.provenance?.files.map((f) => f.path)).toEqual(['prompts/greet.prompt.mdx', 'prompts/who.schema.json', '../shared/tone.mdx', 'prompts/parts/sign.mdx']);
    await writeFile(join(tmp.dir, 'shared/tone.mdx'), 'Be curt.\n');
    await writeFile(join(root, 'prompts/parts/sign.mdx'), 'Sign as Grace.\n');
    await writeFile(join(root, 'prompts/greet.prompt.mdx'), FILES['app/prompts/greet.prompt.mdx'].replace('Hello', 'Bye'));
    const stored = await loadStoredPrompt(root, manifest);
    expect(stored.path).toBe(join(root, 'prompts/greet.prompt.mdx'));
    expect(stored.files).toEqual(manifest.provenance?.files.map((f) => join(root, f.path)));
    expect(stored.inputSchema).toEqual({ type: 'object', properties: { who: { type: 'object', properties: { name: { type: 'string' } } }, n: { type: 'integer' } } });
    expect(stored.render({ who: { name: 'Ada Lovelace' }, n: 3 }).messages).toEqual([
      { role: 'system', content: 'Be kind. Sign as Ada.' },
      { role: 'user', content: 'Hello Ada Lovelace, Ada...' },
    ]);
    // a render error names the project's file, not the temporary copy
    const error = (() => {
      try {
        stored.render({ who: { name: 'Ada' }, n: -1 });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).location?.file).toBe(join(root, 'prompts/greet.prompt.mdx'));
  });

  it('says which stored file is missing, and that a run made before kept nothing', async () => {
    const manifest = await runManifest();
    const { provenance: _gone, ...old } = manifest;
    await expect(loadStoredPrompt(root, old)).rejects.toMatchObject({ code: 'STORE_NO_PROVENANCE', message: 'run run-1 did not keep its prompt' });
    const blobs = new BlobStore(root);
    const hash = manifest.provenance?.files[2]?.hash as string;
    await rm(blobs.path(hash));
    await expect(loadStoredPrompt(root, manifest)).rejects.toMatchObject({ code: 'STORE_BLOB_MISSING', message: `the stored file ${hash.slice(0, 12)} is missing` });
  });
});
