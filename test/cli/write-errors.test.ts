import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { BIN, type CliResult } from '../helpers/run-cli.js';
import { cliProject, type CliProject } from './cli-project.js';

// Rows of ~700 bytes each: a file-size limit of a few KB is reached after a few rows.
const ROWS = 60;
const word = (i: number) => `w${i}-${'x'.repeat(300)}`;
const dataset = `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ input: { word: word(i) }, expected_output: word(i) })).join('\n')}\n`;
const ARGS = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--concurrency', '1', '--format', 'jsonl', '-o', '/dev/null'];

const server = useOpenAIServer();
let project: CliProject;
beforeEach(async () => {
  project = await cliProject({ 'datasets/words.jsonl': dataset });
});
afterEach(async () => {
  // An immutable folder cannot be removed until it is mutable again.
  spawnSync('chattr', ['-i', join(project.dir, '.agentmark', 'runs')]);
  await chmod(join(project.dir, '.agentmark', 'runs'), 0o755).catch(() => undefined);
  await project.cleanup();
});

/** The CLI as `bash -c 'ulimit -f <kb>; agentmark …'` runs it: every file it writes is capped at `kb` KB. */
function runLimited(kb: number, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `ulimit -f ${kb}; exec "$0" "$@"`, process.execPath, BIN, ...args], {
      cwd: project.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const manifestOf = async (id: string) => JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as Record<string, unknown>;

describe('write errors say what happened (exit 2), and --resume continues', () => {
  it('EFBIG (`ulimit -f`): names the results file and the limit; the manifest says failed; the file holds whole rows; --resume finishes', async () => {
    const result = await runLimited(8, ARGS);
    // Node ignores SIGXFSZ, so the write fails with EFBIG instead of the process being killed.
    expect(result.signal).toBe(null);
    const [id] = await project.runIds();
    const file = `.agentmark/runs/${id}/results.jsonl`;
    expect(result.stderr).toBe(
      `error: ${file}: cannot write results.jsonl: the file would exceed the maximum file size of this process (\`ulimit -f\`) (EFBIG)\n` +
        `  hint: raise the limit (\`ulimit -f unlimited\`), then continue the run: agentmark run-experiment prompts/echo.prompt.mdx --resume ${id}\n`,
    );
    expect(result.code).toBe(2);
    const rows = await project.results(id ?? '');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(ROWS);
    expect((await readFile(join(project.dir, file), 'utf8')).endsWith('\n')).toBe(true);
    const manifest = await manifestOf(id ?? '');
    expect(manifest).toMatchObject({
      status: 'failed',
      failure: { code: 'STORE_WRITE_FAILED', message: expect.stringContaining('(EFBIG)') as unknown },
      integrity: { rows: rows.length },
      summary: { passed: false, outcome: 'failed', rows: rows.length },
    });

    const resumed = await project.run([...ARGS, '--resume', id ?? ''], { server });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(await project.results(id ?? '')).toHaveLength(ROWS);
    expect(await manifestOf(id ?? '')).toMatchObject({ status: 'completed', integrity: { rows: ROWS } });
    expect((await manifestOf(id ?? '')).failure).toBeUndefined();
    // The record kept across the failed write, its cut and the resume matches the file.
    const shown = await project.run(['runs', 'show', id ?? '', '--format', 'jsonl']);
    expect(shown.code).toBe(0);
    expect(shown.stdout.trim().split('\n')).toHaveLength(ROWS);
  });

  it('EPERM (a read-only runs folder): names the folder, exit 2, no stack', async () => {
    const runs = join(project.dir, '.agentmark', 'runs');
    await mkdir(runs, { recursive: true });
    // chattr +i stops root too (chmod does not); without chattr, chmod stops anyone else (EACCES).
    const immutable = spawnSync('chattr', ['+i', runs]).status === 0;
    if (!immutable) await chmod(runs, 0o555);
    const code = immutable ? 'EPERM' : 'EACCES';
    const result = await project.run(ARGS, { server });
    expect(result.stderr).toMatch(
      new RegExp(`^error: \\.agentmark/runs/\\d{8}-\\d{6}\\.\\d{3}-[0-9a-f]{6}: cannot write \\d{8}-\\d{6}\\.\\d{3}-[0-9a-f]{6}: .* \\(${code}\\)\\n  hint: make the folder writable, then run again\\n$`),
    );
    expect(result.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

/** Whether this machine lets us mount a tmpfs (root in a container that allows it). */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync('bash', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; s=$?; rmdir "$d"; exit $s']);
  return probe.status === 0;
}

describe.skipIf(!canMountTmpfs())('ENOSPC (needs root and `mount -t tmpfs`; skipped where the machine does not allow it)', () => {
  it('a full disk: names the file, exit 2; the results file holds whole rows; --resume finishes once there is room', async () => {
    const runs = join(project.dir, '.agentmark', 'runs');
    await mkdir(runs, { recursive: true });
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=40k', 'tmpfs', runs]).status).toBe(0);
    let mounted = true;
    try {
      const result = await project.run(ARGS, { server });
      const [id] = await project.runIds();
      const file = `.agentmark/runs/${id}/results.jsonl`;
      expect(result.stderr).toMatch(new RegExp(`^error: ${file.replace(/\./g, '\\.')}: cannot write results\\.jsonl: no space left on the device \\(ENOSPC\\)\\n  hint: free some space, then continue the run: agentmark run-experiment prompts/echo\\.prompt\\.mdx --resume ${id?.replace(/\./g, '\\.')}\\n$`));
      expect(result.code).toBe(2);
      const rows = await project.results(id ?? '');
      expect(rows.length).toBeGreaterThan(0);
      expect((await readFile(join(project.dir, file), 'utf8')).endsWith('\n')).toBe(true);
      // The manifest's own blocks take its last text even on a full disk: it says failed, and why.
      expect(await manifestOf(id ?? '')).toMatchObject({
        status: 'failed',
        failure: { code: 'STORE_WRITE_FAILED', message: 'cannot write results.jsonl: no space left on the device (ENOSPC)' },
        summary: { passed: false, outcome: 'failed', rows: rows.length },
      });

      // Room again: move the run off the small disk, and resume it.
      const saved = join(project.dir, 'saved-runs');
      expect(spawnSync('cp', ['-a', runs, saved]).status).toBe(0);
      expect(spawnSync('umount', [runs]).status).toBe(0);
      mounted = false;
      await rm(runs, { recursive: true, force: true });
      expect(spawnSync('mv', [saved, runs]).status).toBe(0);
      const resumed = await project.run([...ARGS, '--resume', id ?? ''], { server });
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(await project.results(id ?? '')).toHaveLength(ROWS);
    } finally {
      if (mounted) spawnSync('umount', [runs]);
    }
  });
});
