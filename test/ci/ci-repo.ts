import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli, type CliOptions, type CliResult } from '../helpers/run-cli.js';
import type { OpenAIRequestInfo, OpenAIServer } from '../helpers/openai-server.js';

/** Six words, each expected back as written: an echo passes every row, a shout fails every row. */
export const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];

/** The loopback model: answers by the prompt's instruction, so a changed instruction flips rows. */
export function byInstruction(request: OpenAIRequestInfo): { text: string } {
  return { text: request.messagesText.includes('Shout') ? request.lastUserText.toUpperCase() : request.lastUserText };
}

export function promptFile(name: string, instruction: string): string {
  return [
    '---',
    `name: ${name}`,
    'text_config:',
    '  model_name: openai/gpt-4o-mini',
    'test_settings:',
    '  dataset: ../datasets/words.jsonl',
    '  evals: [exact]',
    '---',
    '',
    `<System>${instruction}</System>`,
    '',
    '<User>{props.word}</User>',
    '',
  ].join('\n');
}

export interface CiRepo {
  dir: string;
  git: (...args: string[]) => string;
  write: (path: string, text: string) => Promise<void>;
  remove: (path: string) => Promise<void>;
  /** Runs the built CLI in the repository, pointed at the loopback model. */
  run: (args: string[], options?: Partial<CliOptions> & { env?: NodeJS.ProcessEnv }) => Promise<CliResult>;
  /** Folders left under .agentmark/ by base worktrees. */
  worktreeFolders: () => Promise<string[]>;
  cleanup: () => Promise<void>;
}

/**
 * A git repository made for the test: three prompts (alpha, beta, gamma) committed on `main`,
 * all passing with the loopback model; `.agentmark/` ignored, as a project's .gitignore does.
 */
export async function ciRepo(server: OpenAIServer): Promise<CiRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-ci-'));
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  await write('.gitignore', '.agentmark/\n');
  await write(
    'agentmark.json',
    JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: 'prompts', scores: { exact: { type: 'boolean', description: 'Output equals the expected output', scorer: 'exact_match' } } }, null, 2),
  );
  await write('datasets/words.jsonl', WORDS.map((word) => JSON.stringify({ input: { word }, expected_output: word })).join('\n') + '\n');
  await write('prompts/alpha.prompt.mdx', promptFile('alpha', 'Repeat the word.'));
  await write('prompts/beta.prompt.mdx', promptFile('beta', 'Echo the word.'));
  await write('prompts/gamma.prompt.mdx', promptFile('gamma', 'Say the word.'));
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'three prompts');
  return {
    dir,
    git,
    write,
    remove: (path) => rm(join(dir, path)),
    run: (args, options = {}) => {
      const { env, ...rest } = options;
      return runCli(['ci', ...args], { cwd: dir, timeoutMs: 60_000, ...rest, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test', ...env } });
    },
    worktreeFolders: async () => (await readdir(join(dir, '.agentmark')).catch(() => [] as string[])).filter((name) => name.startsWith('ci-base-')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The branch the issue describes: alpha's instruction changed so every row flips, delta added, gamma removed. */
export async function featureBranch(repo: CiRepo): Promise<void> {
  repo.git('checkout', '-q', '-b', 'feature');
  await repo.write('prompts/alpha.prompt.mdx', promptFile('alpha', 'Shout the word.'));
  await repo.write('prompts/delta.prompt.mdx', promptFile('delta', 'Write the word.'));
  await repo.remove('prompts/gamma.prompt.mdx');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'alpha shouts, delta added, gamma removed');
}
