import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { copyFixture } from '../helpers/temp-project.js';

/**
 * An AgentMark project as its scaffold lays one out (agentmark.json with agentmarkPath ".",
 * prompts and datasets under agentmark/, eval functions registered on the client in
 * agentmark.client.ts through a stand-in of AgentMark's client factory in its node_modules),
 * run as it is. The loopback server echoes the last user message (an object `{ city }` for
 * the object prompt), so which rows pass is known.
 */
const server = useOpenAIServer();
let dir: string;
let cleanup: () => Promise<void> = async () => undefined;
afterEach(() => cleanup());

async function setUp(files: Record<string, string | null> = {}): Promise<void> {
  ({ dir, cleanup } = await copyFixture('projects/agentmark-app'));
  for (const [path, text] of Object.entries(files)) {
    if (text === null) await rm(join(dir, path));
    else await writeFile(join(dir, path), text);
  }
}

// Each run loads the client in the CLI and again in a scorer worker: generous bounds for a loaded machine.
const run = (args: string[]) => runCli(args, { cwd: dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' }, timeoutMs: 60_000 });

type Row = { index: number; input: Record<string, unknown>; evals: Record<string, { passed?: boolean; reason?: string; error?: string }> };
/** The jsonl rows in dataset order (they are written as they finish). */
const rows = (stdout: string): Row[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row)
    .sort((a, b) => a.index - b.index);
const verdicts = (stdout: string, name: string) => rows(stdout).map((row) => row.evals[name]?.passed);

const BOTH = 'warning: scorer short_answer is registered in both agentmark.config.ts and agentmark.client.ts: the one in agentmark.config.ts is used\n';
const MISSING = "warning: agentmark.client.ts could not be loaded, so its eval functions are not registered: Cannot find module '@agentmark-ai/loader-api'";

/** The fixture's client, importing a package that is not installed (as before `npm install`). */
async function clientWithMissingPackage(): Promise<string> {
  const client = await readFile(join(dir, 'agentmark.client.ts'), 'utf8');
  return client
    .replace('import { createAgentMark } from "@agentmark-ai/prompt-core";', 'import { createAgentMark } from "@agentmark-ai/prompt-core";\nimport { ApiLoader } from "@agentmark-ai/loader-api";')
    .replace('loader: { load: async (path: string) => path },', 'loader: ApiLoader.local({ baseUrl: "http://localhost:9418" }),');
}

describe('an AgentMark project run unchanged', { timeout: 120_000 }, () => {
  it("binds the client's eval functions; agentmark.config.ts wins on a name in both, with a warning naming both files", async () => {
    await setUp();
    const result = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl']);
    expect(result.stderr).toBe(BOTH);
    expect(result.code).toBe(1);
    expect(verdicts(result.stdout, 'sentiment_check')).toEqual([true, false, true]);
    expect(rows(result.stdout)[1]?.evals.sentiment_check?.reason).toBe('expected positive');
    // The config's short_answer (which counts words), not the client's (which always fails).
    expect(rows(result.stdout).map((row) => row.evals.short_answer)).toEqual([
      { score: 1, passed: true, label: null, reason: '1 words', normalized: 1, error: null, skipped: false },
      { score: 1, passed: true, label: null, reason: '3 words', normalized: 1, error: null, skipped: false },
      { score: 1, passed: true, label: null, reason: '1 words', normalized: 1, error: null, skipped: false },
    ]);
  });

  it('an object prompt in a subfolder of agentmark/ finds ./datasets/ from agentmark/ and is scored by the client', async () => {
    await setUp();
    const result = await run(['run-experiment', 'agentmark/extraction/city.prompt.mdx', '--quiet', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    expect(rows(result.stdout).map((row) => row.input)).toEqual([{ text: 'Paris' }, { text: 'Lille' }]);
    expect(verdicts(result.stdout, 'exact_match_json')).toEqual([true, false]);
  });

  it('validate and a folder run find every prompt under agentmark/', async () => {
    await setUp();
    const validate = await run(['validate']);
    expect(validate.stdout).toBe('ok: 3 prompts, 3 datasets (7 rows) in .\n');
    expect(validate.code).toBe(0);
    const folder = await run(['run-experiment', 'agentmark', '--quiet', '--format', 'jsonl']);
    expect(rows(folder.stdout)).toHaveLength(7);
    expect(server.requests).toHaveLength(7);
  });

  it('without agentmark.config.ts the client alone registers the scorers, and a leading / in agentmarkPath is the project root', async () => {
    await setUp({ 'agentmark.config.ts': null });
    const json = JSON.parse(await readFile(join(dir, 'agentmark.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(dir, 'agentmark.json'), JSON.stringify({ ...json, agentmarkPath: '/' }));
    const result = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl', '--rows', '0']);
    expect(result.stderr).toBe('');
    expect(rows(result.stdout)[0]?.evals.short_answer).toEqual({ score: 0, passed: false, label: null, reason: "the client's short_answer", normalized: 0, error: null, skipped: false });
  });

  it('older clients: eval functions passed as `evals:`, or an EvalRegistry filled with register()', async () => {
    await setUp();
    const client = await readFile(join(dir, 'agentmark.client.ts'), 'utf8');
    await writeFile(join(dir, 'agentmark.client.ts'), client.replace(/\n {2}scorers,\n/, '\n  evals: scorers,\n'));
    const withEvals = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl']);
    expect(verdicts(withEvals.stdout, 'sentiment_check')).toEqual([true, false, true]);

    const registry = client
      .replace('import { createAgentMark } from "@agentmark-ai/prompt-core";', 'import { createAgentMarkClient, EvalRegistry } from "@agentmark-ai/prompt-core";')
      .replace(/export const client = createAgentMark\(\{[\s\S]*$/, [
        'const evalRegistry = new EvalRegistry();',
        'evalRegistry.register("sentiment_check", scorers.sentiment_check);',
        'export const client = createAgentMarkClient({ evalRegistry });',
        '',
      ].join('\n'));
    await writeFile(join(dir, 'agentmark.client.ts'), registry);
    const withRegistry = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl', '--rows', '1']);
    expect(withRegistry.stderr).toBe('');
    expect(rows(withRegistry.stdout)[0]?.evals.sentiment_check).toEqual({ score: 0, passed: false, label: null, reason: 'expected positive', normalized: 0, error: null, skipped: false });
  });

  it('a client scorer that never returns is cut off by --eval-timeout (it runs in a worker thread)', async () => {
    await setUp({ 'agentmark.config.ts': null });
    const client = await readFile(join(dir, 'agentmark.client.ts'), 'utf8');
    await writeFile(join(dir, 'agentmark.client.ts'), client.replace('  sentiment_check: ({ output, expectedOutput }: EvalParams) => {', '  sentiment_check: ({ output, expectedOutput }: EvalParams) => {\n    for (;;) {}'));
    const result = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl', '--rows', '0', '--eval-timeout', '0.3']);
    expect(result.code).toBe(1);
    expect(rows(result.stdout)[0]?.evals.sentiment_check).toEqual({ score: null, passed: null, label: null, reason: null, normalized: null, error: 'timed out after 0.3s', skipped: false });
  });
});

describe('a client that cannot be loaded', { timeout: 120_000 }, () => {
  it('is a warning, and evals that do not need it still run', async () => {
    await setUp();
    await writeFile(join(dir, 'agentmark.client.ts'), await clientWithMissingPackage());
    const result = await run(['run-experiment', 'agentmark/greeting.prompt.mdx', '--quiet', '--format', 'jsonl']);
    expect(result.stderr).toBe(`${MISSING}\n`);
    expect(result.code).toBe(0);
    expect(verdicts(result.stdout, 'says_hello')).toEqual([true, true]);
  });

  it('fails with exit 2 naming the client only when an eval needs a scorer only it could provide, before any model call', async () => {
    await setUp();
    await writeFile(join(dir, 'agentmark.client.ts'), await clientWithMissingPackage());
    const result = await run(['run-experiment', 'agentmark/sentiment.prompt.mdx', '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${MISSING}\n` +
        `error: agentmark/sentiment.prompt.mdx:8:7: eval "sentiment_check" has no scorer here, and agentmark.client.ts, which may register it, could not be loaded: Cannot find module '@agentmark-ai/loader-api'\n` +
        '  hint: install what agentmark.client.ts imports (npm install), or register a scorer named sentiment_check in agentmark.config.ts\n',
    );
    expect(server.requests).toHaveLength(0);
  });
});
