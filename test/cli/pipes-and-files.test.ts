/**
 * What surrounds a run: a stdout that goes away (`| head -1`), the `--output` file on an input
 * error, and the built bin itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer, type OpenAIReply } from '../helpers/openai-server.js';
import { BIN } from '../helpers/run-cli.js';
import { cliProject, type CliProject } from './cli-project.js';

const ROWS = 200;
const many = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}` })).join('\n');
const manyPrompt =
  '---\nname: many\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/many.jsonl\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n';

const server = useOpenAIServer();
let project: CliProject;
beforeEach(async () => {
  project = await cliProject({ 'datasets/many.jsonl': `${many}\n`, 'prompts/many.prompt.mdx': manyPrompt });
});
afterEach(() => project.cleanup());

describe('a closed stdout', () => {
  it('`run-experiment … --format jsonl | head -1` stops quietly, saves the run as interrupted, and --resume completes it', async () => {
    server.setHandler((request) => ({ ...echoResponder(request), latencyMs: 20 }) as OpenAIReply);
    // The shell's own pipe to a real `head`, as a user types it.
    const command = `"${process.execPath}" "${BIN}" run-experiment prompts/many.prompt.mdx --format jsonl --quiet --concurrency 4 2>stderr.txt | head -1; echo "\${PIPESTATUS[0]}" > code.txt`;
    const head = await new Promise<string>((resolve, reject) => {
      const child = spawn('bash', ['-c', command], {
        cwd: project.dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' },
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    const [runId] = await project.runIds();
    expect(runId).toBeDefined();
    const id = runId ?? '';
    expect(JSON.parse(head) as { index: number }).toMatchObject({ index: expect.any(Number) });
    expect(await project.read('stderr.txt')).toBe(`stopped: stdout was closed; finished rows are saved; continue with: agentmark run-experiment --resume ${id} --format jsonl --quiet --concurrency 4\n`);
    expect((await project.read('code.txt')).trim()).toBe('130');
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string; summary: { rows: number } };
    expect(manifest.status).toBe('interrupted');
    const stored = await project.results(id);
    expect(stored.length).toBeLessThan(ROWS);
    expect(manifest.summary.rows).toBe(stored.length);
    expect(existsSync(join(project.dir, '.agentmark', 'runs', id, 'run.lock'))).toBe(false);

    const resumed = await project.run(['run-experiment', 'prompts/many.prompt.mdx', '--quiet', '--resume', id, '--format', 'jsonl'], { server });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const all = await project.results(id);
    expect(all.map((row) => row.index).sort((a, b) => Number(a) - Number(b))).toEqual([...Array(ROWS).keys()]);
  }, 60_000);
});

describe('--output', () => {
  it('an input error leaves an earlier report untouched, and creates no file where there was none', async () => {
    await project.write('report.json', 'the earlier report\n');
    const cases: string[][] = [
      ['run-experiment', 'prompts/many.prompt.mdx', '--resume', 'no-such-run', '--format', 'json', '-o', 'report.json'],
      ['run-experiment', 'prompts/many.prompt.mdx', '--threshold', '50', '--skip-eval', '--format', 'json', '--output', 'report.json'],
      ['score', 'prompts/many.prompt.mdx', '--outputs', 'datasets/missing.jsonl', '--format', 'json', '-o', 'report.json'],
    ];
    for (const args of cases) {
      const result = await project.run(args, { server });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
      expect(await project.read('report.json')).toBe('the earlier report\n');
      const fresh = await project.run(args.map((arg) => (arg === 'report.json' ? 'new.json' : arg)), { server });
      expect(fresh.code).toBe(2);
      expect(existsSync(join(project.dir, 'new.json'))).toBe(false);
    }
    expect(await project.runIds()).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('a run that starts replaces the report, even with nothing to write (jsonl of zero rows run)', async () => {
    const first = await project.run(['run-experiment', 'prompts/many.prompt.mdx', '--rows', '0-1', '--quiet', '--format', 'jsonl', '-o', 'report.jsonl'], { server });
    expect(first.code).toBe(0);
    const [id] = await project.runIds();
    expect((await project.read('report.jsonl')).trimEnd().split('\n')).toHaveLength(2);
    await project.write('report.csv', 'stale\n');
    // Resuming a finished run runs no row; the (empty) report still belongs to this run.
    // (--format csv with -o report.jsonl is now a usage error: the file is named for csv.)
    const again = await project.run(['run-experiment', 'prompts/many.prompt.mdx', '--rows', '0-1', '--quiet', '--resume', id ?? '', '--format', 'csv', '-o', 'report.csv'], {
      server,
    });
    expect(again.code).toBe(0);
    expect(await project.read('report.csv')).toMatch(/^index,/);
  });
});

describe('the run lock', () => {
  it('is gone after a run whose gate failed (exit 1)', async () => {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'jsonl'], { server });
    expect(result.code).toBe(1);
    const [id] = await project.runIds();
    expect(existsSync(join(project.dir, '.agentmark', 'runs', id ?? '', 'run.lock'))).toBe(false);
  });
});

describe('the built bin', () => {
  it('is executable after the build, and runs without `node` in front', async () => {
    // `npm test` builds first; `npx agentmark` and a folder or tarball install exec this file.
    expect(statSync(BIN).mode & 0o111).toBe(0o111);
    const version = (JSON.parse(await readFile(join(BIN, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
    const direct = spawnSync(BIN, ['--version'], { encoding: 'utf8', env: { PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}` } });
    expect(direct.error).toBeUndefined();
    expect(direct.stdout).toBe(`${version}\n`);
  });
});
