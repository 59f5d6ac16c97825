import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCli, type CliOptions, type CliResult } from '../helpers/run-cli.js';
import { copyFixture } from '../helpers/temp-project.js';
import type { OpenAIServer } from '../helpers/openai-server.js';

export interface CliProject {
  dir: string;
  cleanup: () => Promise<void>;
  /** Runs the built CLI in the project folder, pointed at `server` when given. */
  run: (args: string[], options?: Partial<CliOptions> & { server?: OpenAIServer }) => Promise<CliResult>;
  write: (path: string, text: string) => Promise<void>;
  read: (path: string) => Promise<string>;
  /** Run ids under .agentmark/runs, oldest first. */
  runIds: () => Promise<string[]>;
  /** The parsed lines of a run's results.jsonl. */
  results: (runId: string) => Promise<Array<Record<string, unknown>>>;
}

/** A temp copy of test/fixtures/cli/<name> (default `echo`), with `files` written over it. */
export async function cliProject(files: Record<string, string> = {}, name = 'echo'): Promise<CliProject> {
  const { dir, cleanup } = await copyFixture(`cli/${name}`);
  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) await write(path, text);
  const runIds = async (): Promise<string[]> => (await readdir(join(dir, '.agentmark', 'runs')).catch(() => [])).sort();
  return {
    dir,
    cleanup,
    write,
    read: (path) => readFile(join(dir, path), 'utf8'),
    runIds,
    results: async (runId) => {
      const text = await readFile(join(dir, '.agentmark', 'runs', runId, 'results.jsonl'), 'utf8');
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    run: (args, options = {}) => {
      const { server, env, ...rest } = options;
      return runCli(args, {
        cwd: dir,
        ...rest,
        env: { ...(server ? { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } : {}), ...env },
      });
    },
  };
}

/** Replaces what changes from run to run: run ids, timings, rates, the temp folder. */
export function normalize(text: string, root?: string): string {
  let out = text;
  if (root !== undefined) out = out.split(root).join('<root>');
  return out
    .replace(/\d{8}-\d{6}\.\d{3}-[0-9a-f]{6}/g, '<run-id>')
    .replace(/\d+(\.\d+)?(ms|s)\b/g, '[...]$2')
    // The summary's latency block: every figure in it is a timing (its count too, kept simple).
    .replace(/"latencyMs": \{[^{}]*\}/g, (block) => block.replace(/": ?\d+(\.\d+)?/g, '": [...]'))
    .replace(/"(latencyMs|durationMs|mean|p50|p95)": ?\d+(\.\d+)?/g, '"$1": [...]')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>');
}
