import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

/** A run's rows in dataset order: results.jsonl holds them as they finished, and rows in flight together may finish in any order. */
const rowsOf = async (id: string): Promise<Array<Record<string, unknown>>> => (await project.results(id)).sort((a, b) => Number(a['index']) - Number(b['index']));

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

  it('compare shows the diff of the prompts as the runs stored them, in every format', async () => {
    const ids = await project.runIds();
    await project.write('prompts/parts/rule.mdx', 'Answer with the word only, in lower case.\n');
    await project.write('prompts/kept.prompt.mdx', PROMPT.replace('Repeat the word.', 'Say the word back.'));
    const edited = await project.run(['run-experiment', 'prompts/kept.prompt.mdx', '--quiet', '--format', 'jsonl'], { server });
    expect(edited.stderr).toBe('');
    const head = (await project.runIds()).at(-1) as string;
    const base = ids[0] as string;
    const expected =
      '--- a/prompts/kept.prompt.mdx\n+++ b/prompts/kept.prompt.mdx\n@@ -9,6 +9,6 @@\n' +
      " ---\n import Rule from './parts/rule.mdx'\n \n-<System>Repeat the word. <Rule /></System>\n+<System>Say the word back. <Rule /></System>\n \n <User>{props.word}</User>\n" +
      '--- a/prompts/parts/rule.mdx\n+++ b/prompts/parts/rule.mdx\n@@ -1 +1 @@\n-Answer with the word only.\n+Answer with the word only, in lower case.\n';

    const table = await project.run(['compare', base, head]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`\nPrompt diff (the prompts as each run stored them):\n${expected}\n`);

    const json = await project.run(['compare', base, head, '--format', 'json']);
    const result = JSON.parse(json.stdout) as { promptDiff: { files: Array<{ base: { path: string; text: string }; head: { path: string; text: string }; unified: string }> } };
    expect(result.promptDiff.files.map((f) => f.unified).join('')).toBe(expected);
    expect(result.promptDiff.files[1]?.base).toEqual({ path: 'prompts/parts/rule.mdx', text: COMPONENT });

    const markdown = await project.run(['compare', base, head, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`<details><summary>Prompt diff (2 files)</summary>\n\n\`\`\`diff\n${expected}\`\`\`\n\n</details>\n`);

    const html = await project.run(['compare', base, head, '--format', 'html', '-o', 'compare.html']);
    expect(html.code).toBe(0);
    const page = await project.read('compare.html');
    for (const file of result.promptDiff.files) expect(page).toContain(`"unified":${JSON.stringify(file.unified).replace(/</g, '\\u003c')}`);

    // a run made before runs kept their prompt: said, not guessed
    const old = '20200101-000000.000-000000';
    await cp(join(project.dir, '.agentmark/runs', head), join(project.dir, '.agentmark/runs', old), { recursive: true });
    const { provenance: _kept, ...manifest } = await manifestOf(old);
    await project.write(`.agentmark/runs/${old}/manifest.json`, JSON.stringify({ ...manifest, id: old }));
    // (wide enough for the note on one line: piped, prose wraps at 100 columns)
    const unknown = await project.run(['compare', base, old], { env: { COLUMNS: '200' } });
    expect(unknown.stdout).toContain(`\nPrompt diff: run ${old} did not keep its prompt (made before runs kept it), so the prompt diff cannot be shown\n`);
    await rm(join(project.dir, '.agentmark/runs', old), { recursive: true });

    // the same prompt on both sides: nothing to show
    const same = await project.run(['compare', base, ids[1] as string, '--format', 'json']);
    expect((JSON.parse(same.stdout) as { promptDiff: unknown }).promptDiff).toEqual({ files: [] });
    expect((await project.run(['compare', base, ids[1] as string])).stdout).not.toContain('Prompt diff');
  });

  it('rerun runs the stored prompt again over the same rows and reproduces the results exactly from the cache', async () => {
    const ids = await project.runIds();
    const source = ids[1] as string;
    const requests = server.requests.length;
    const rerun = await project.run(['rerun', source.slice(0, 20), '--format', 'jsonl', '--quiet'], { server });
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(1);
    // every answer from the cache: the edited prompt was not sent
    expect(server.requests.length).toBe(requests);
    const made = (await project.runIds()).at(-1) as string;
    const timing = ({ latencyMs: _l, endedAt: _e, durationMs: _d, startedAt: _s, ...rest }: Record<string, unknown>) => rest;
    expect((await rowsOf(made)).map(timing)).toEqual((await rowsOf(source)).map(timing));
    const manifest = await manifestOf(made);
    const original = await manifestOf(source);
    expect(manifest['provenance']).toEqual({ ...(original['provenance'] as object), rerunOf: source });
    for (const key of ['prompt', 'dataset', 'model', 'settings', 'options']) expect(manifest[key]).toEqual(original[key]);
  });

  it('rerun keeps the selection and accepts latest~N', async () => {
    const sampled = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--rows', '0,2', '--quiet', '--format', 'jsonl'], { server });
    expect(sampled.code).toBe(1);
    const source = (await project.runIds()).at(-1) as string;
    const rerun = await project.run(['rerun', 'latest', '--cache-only', '--format', 'jsonl', '--quiet']);
    expect(rerun.stderr).toBe('');
    const made = (await project.runIds()).at(-1) as string;
    expect((await rowsOf(made)).map((r) => [r['index'], r['output']])).toEqual([[0, 'alpha'], [2, 'gamma']]);
    const again = await project.run(['rerun', 'latest~1', '--cache-only', '--format', 'jsonl', '--quiet']);
    expect(again.code).toBe(1);
    expect((await manifestOf((await project.runIds()).at(-1) as string))['provenance']).toMatchObject({ rerunOf: source });
  });

  it('rerun refuses, exit 2, once the dataset changed', async () => {
    const ids = await project.runIds();
    const before = await project.read('datasets/words.jsonl');
    await project.write('datasets/words.jsonl', `${before}{"input": {"word": "delta"}, "expected_output": "delta"}\n`);
    const refused = await project.run(['rerun', ids[0] as string], { server });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error: datasets/words.jsonl: changed since run ${ids[0]} (sha256 ${sha256(before).slice(0, 12)} then, ${sha256(await project.read('datasets/words.jsonl')).slice(0, 12)} now): the same selection would not run the same rows\n` +
        '  hint: restore the dataset as it was (e.g. from git), or run the prompt afresh with run-experiment\n',
    );
    expect(await project.runIds()).toEqual(ids);
  });

  it('rerun warns when the config changed since the run', async () => {
    await project.write('datasets/words.jsonl', (await project.read('datasets/words.jsonl')).split('\n').slice(0, 3).join('\n') + '\n');
    await project.write('agentmark.config.ts', `${await project.read('agentmark.config.ts')}// edited\n`);
    const source = (await project.runIds())[0] as string;
    const rerun = await project.run(['rerun', source, '--cache-only', '--quiet', '--format', 'jsonl']);
    expect(rerun.stderr).toBe(`warning: agentmark.config.ts changed since run ${source}: the rerun uses today's (scorers, score schemas, filters)\n`);
    expect(rerun.code).toBe(1);
  });

  it('rerun refuses, exit 2, a stored prompt edited in place: blobs are checked against their sha256 when read', async () => {
    const ids = await project.runIds();
    const blob = join(project.dir, '.agentmark', 'blobs', sha256(PROMPT));
    const edited = PROMPT.replace('Repeat the word.', 'Shout the word.');
    await writeFile(blob, edited);
    try {
      const refused = await project.run(['rerun', ids[0] as string, '--cache-only'], { server });
      expect([refused.code, refused.stderr]).toEqual([
        2,
        `error: .agentmark/blobs/${sha256(PROMPT)}: the stored file ${sha256(PROMPT).slice(0, 12)} was changed after it was stored (its sha256 is ${sha256(edited).slice(0, 12)} now)\n` +
          '  hint: a stored file never changes: restore it from another copy of .agentmark/blobs/, or run the prompt afresh with run-experiment\n',
      ]);
      expect(await project.runIds()).toEqual(ids);
    } finally {
      await writeFile(blob, PROMPT);
    }
  });
});
