import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { copyFixture } from '../helpers/temp-project.js';

const server = useOpenAIServer();
let dir: string;
let cleanup: () => Promise<void> = async () => undefined;
afterEach(() => cleanup());

const run = (args: string[]) => runCli(args, { cwd: dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' }, timeoutMs: 60_000 });

/** Every file of the project with its contents, to show what a command changed. */
async function snapshot(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files.set(relative(dir, file), await readFile(file, 'utf8'));
  }
  return files;
}

const NOTES = [
  '',
  'Read differently from AgentMark:',
  '  - run-experiment calls the models itself (keys from the environment, e.g. OPENAI_API_KEY): no `agentmark dev` server; --server and AGENTMARK_WEBHOOK_URL are not used.',
  "  - The client's loader, model registry and tools are not used: model_name picks the provider (`providers` in agentmark.config.ts adds others) and `tools` in agentmark.config.ts provides tool code.",
  '  - --sample N runs a random N% of the rows (1-100), as in AgentMark; --limit N runs the first N rows and --sample-rows N a random N rows; --rows, --split, --seed, --threshold, --format and --skip-eval mean what they mean in AgentMark.',
  '  - An eval name with no scorer is an error before any model call (AgentMark skips it), and results are checked against their score schema in agentmark.json.',
  '  - Responses are cached under .agentmark/cache and every run is kept under .agentmark/runs/ (add .agentmark/ to .gitignore).',
  '  - agentmark.json: `evals` is accepted and not used.',
  '',
  'Check the project with `agentmark validate`.',
  '',
].join('\n');

describe('agentmark migrate', { timeout: 120_000 }, () => {
  it("writes agentmark.config.ts registering the client's eval functions, changes no other file, and the project runs through it", async () => {
    ({ dir, cleanup } = await copyFixture('projects/agentmark-app'));
    await rm(join(dir, 'agentmark.config.ts'));
    const before = await snapshot();
    const result = await run(['migrate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`wrote agentmark.config.ts: 3 scorers from agentmark.client.ts (exact_match_json, sentiment_check, short_answer)\n${NOTES}`);
    const after = await snapshot();
    const config = after.get('agentmark.config.ts');
    after.delete('agentmark.config.ts');
    expect(after).toEqual(before);
    expect(config).toContain("import { client } from './agentmark.client';");
    expect(config).toContain('    exact_match_json: evalFunction("exact_match_json"),\n    sentiment_check: evalFunction("sentiment_check"),\n    short_answer: evalFunction("short_answer"),\n');

    // The config imports the client: no warning about a name in both, and the client's scorers score.
    const experiment = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl', '--rows', '1']);
    expect(experiment.stderr).toBe('');
    const row = JSON.parse(experiment.stdout) as { evals: Record<string, unknown> };
    expect(row.evals).toEqual({
      sentiment_check: { score: 0, passed: false, label: null, reason: 'expected positive', normalized: 0, error: null, skipped: false },
      short_answer: { score: 0, passed: false, label: null, reason: "the client's short_answer", normalized: 0, error: null, skipped: false },
    });
  });

  it('refuses to overwrite an existing config without --force (exit 2, file untouched); --force overwrites it', async () => {
    ({ dir, cleanup } = await copyFixture('projects/agentmark-app'));
    const original = await readFile(join(dir, 'agentmark.config.ts'), 'utf8');
    const refused = await run(['migrate']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe('error: agentmark.config.ts: agentmark.config.ts already exists; migrate writes a new one\n  hint: pass --force to overwrite it (its scorers, tools and settings are lost)\n');
    expect(await readFile(join(dir, 'agentmark.config.ts'), 'utf8')).toBe(original);

    const forced = await run(['migrate', '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(join(dir, 'agentmark.config.ts'), 'utf8')).toContain("import { client } from './agentmark.client';");
  });

  it('writes nothing when the client cannot be loaded (a config importing it would break every run)', async () => {
    ({ dir, cleanup } = await copyFixture('projects/agentmark-app'));
    await rm(join(dir, 'agentmark.config.ts'));
    await writeFile(join(dir, 'agentmark.client.ts'), 'import { ApiLoader } from "@agentmark-ai/loader-api";\nexport const client = ApiLoader.local({});\n');
    const before = await snapshot();
    const result = await run(['migrate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "error: agentmark.client.ts: agentmark.client.ts could not be loaded: Cannot find module '@agentmark-ai/loader-api'\n  hint: install what it imports (npm install), then run migrate again\n",
    );
    expect(await snapshot()).toEqual(before);
  });

  it('--help describes it', async () => {
    ({ dir, cleanup } = await copyFixture('projects/agentmark-app'));
    const result = await run(['migrate', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: agentmark migrate/);
    expect(result.stdout).toContain('--force');
  });
});
