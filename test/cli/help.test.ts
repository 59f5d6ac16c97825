import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/temp-project.js';

const cwd = REPO_ROOT;
const version = (JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { version: string }).version;
// watch is owned by the watch-mode work and tested there.
const commands = ['run-experiment', 'run-prompt', 'score', 'render', 'validate', 'init', 'ci'];

describe('agentmark --version and --help', () => {
  it('prints the package version', async () => {
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag], { cwd });
      expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('lists every command in the global help', async () => {
    const result = await runCli(['--help'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').slice(0, 5)).toEqual([
      'Usage: agentmark <command> [options]',
      '',
      'Evaluate AgentMark .prompt.mdx prompts against their datasets.',
      '',
      'Commands:',
    ]);
    for (const name of commands) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(result.stdout).toContain('Exit codes: 0 success, 1 a gate failed, 2 usage or input error, 130 interrupted.');
  });

  it('shows the global help and exits 2 when no command is given', async () => {
    const result = await runCli([], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('Usage: agentmark <command> [options]');
  });

  it.each(commands)('%s --help prints its usage and options and exits 0', async (name) => {
    const result = await runCli([name, '--help'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(new RegExp(`^Usage: agentmark ${name}`));
    expect(result.stdout).toContain('\nOptions:\n');
    expect(result.stdout).toContain('-h, --help');
  });

  it('run-experiment --help lists every run flag with its default', async () => {
    const { stdout } = await runCli(['run-experiment', '--help'], { cwd });
    for (const flag of ['--model', '--concurrency <n>', '--timeout <seconds>', '--max-retries', '--repeat', '--rows', '--sample <percent>', '--sample-rows <n>', '--limit <n>', '--seed',
      '--split <train|test:percent>', '--skip-eval', '--cache', '--cache-only', '--resume', '--format', '--output', '--truncate', '--threshold',
      '--eval-timeout', '--judge-model', '--quiet']) {
      expect(stdout).toContain(flag);
    }
    // AgentMark's defaults
    expect(stdout).toContain('Rows in flight at once (as AgentMark) (default: 20)');
    expect(stdout).toContain('Cut table cells to n characters (0: never; as AgentMark) (default: 1000)');
    expect(stdout).toContain('Per model call; aborts the request (default: 60)');
  });
});

describe('usage errors exit 2 with one clear message', () => {
  it.each([
    [['frobnicate'], 'error: unknown command "frobnicate"\n  hint: run `agentmark --help` to list the commands\n'],
    [['rnu-experiment'], 'error: unknown command "rnu-experiment"; did you mean "run-experiment"?\n  hint: run `agentmark --help` to list the commands\n'],
    [['run-experiment', '--frob'], 'error: unknown option --frob\n  hint: run `agentmark run-experiment --help` to see the options\n'],
    [['run-experiment', '--concurency', '2', 'p.prompt.mdx'], 'error: unknown option --concurency; did you mean --concurrency?\n  hint: run `agentmark run-experiment --help` to see the options\n'],
    [['run-experiment', '--no-cach', 'p.prompt.mdx'], 'error: unknown option --no-cach; did you mean --no-cache?\n  hint: run `agentmark run-experiment --help` to see the options\n'],
    [['run-experiment', '-z', 'p.prompt.mdx'], 'error: unknown option -z\n  hint: run `agentmark run-experiment --help` to see the options\n'],
    [['render', '--row'], 'error: --row needs a value\n  hint: run `agentmark render --help` to see the options\n'],
    [['run-experiment', '--quiet=yes', 'p.prompt.mdx'], 'error: --quiet takes no value\n  hint: run `agentmark run-experiment --help` to see the options\n'],
    [['run-experiment', '--concurrency', 'many', 'p.prompt.mdx'], 'error: --concurrency takes a whole number, got "many"\n'],
    [['run-experiment', '--concurrency', '0', 'p.prompt.mdx'], 'error: --concurrency must be at least 1, got 0\n'],
    [['run-experiment', '--threshold', '101', 'p.prompt.mdx'], 'error: --threshold must be at most 100, got 101\n'],
    [['run-experiment', '--threshold=-1', 'p.prompt.mdx'], 'error: --threshold must be at least 0, got -1\n'],
    [['run-experiment', '--threshold', '-1', 'p.prompt.mdx'], 'error: --threshold needs a value; for one starting with a dash write --threshold=<value>\n  hint: run `agentmark run-experiment --help` to see the options\n'],
    [['run-experiment', '--format', 'xml', 'p.prompt.mdx'], 'error: --format xml is not a report format\n  hint: use one of: table, json, jsonl, csv, junit, markdown, html\n'],
    [['run-experiment', '--rows', '1', '--sample', '2', 'p.prompt.mdx'], 'error: --rows and --sample cannot be used together\n  hint: pick one way of choosing rows\n'],
    [['run-experiment', '--cache-only', '--no-cache', 'p.prompt.mdx'], 'error: --cache-only and --no-cache cannot be used together\n'],
    [['run-experiment'], 'error: run-experiment needs a prompt file or folder\n  hint: e.g. `agentmark run-experiment prompts/support.prompt.mdx`, or `--resume <run-id>` to continue a run\n'],
  ])('%j', async (args, expected) => {
    const result = await runCli(args, { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
