/**
 * Stops and failures before a run has begun are said as such: a Ctrl-C (or SIGTERM) while the
 * CLI, the config or the dataset is still loading is an interrupt (exit 130), not an AbortError
 * printed as an internal error; SIGHUP (a closed terminal) ends a run as SIGTERM does, saved and
 * resumable; a full disk before the run folder exists is STORE_WRITE_FAILED naming the file.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';

const server = useOpenAIServer();
let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const ARGS = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '-q', '--format', 'jsonl', '-o', '/dev/null'];
const withoutTrace = (stderr: string): string => stderr.replace(/^startup [^\n]*\n/gm, '');

/** Runs the CLI with its start-up traced and sends `signal` the moment stderr shows `phase`. */
function stopAt(made: CliProject, phase: string, signal: NodeJS.Signals): Promise<CliResult> {
  let child: ChildProcess | undefined;
  let seen = '';
  let sent = false;
  return runCli(ARGS, {
    cwd: made.dir,
    env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test', AGENTMARK_TRACE_STARTUP: '1' },
    timeoutMs: 60_000,
    onSpawn: (spawned) => {
      child = spawned;
      spawned.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (!sent && seen.includes(` ms ${phase}\n`)) {
          sent = true;
          child?.kill(signal);
        }
      });
    },
  });
}

describe('a stop before the run has begun', () => {
  it.each([
    ['bin started', 'SIGINT'],
    ['bin started', 'SIGTERM'],
    ['config loaded', 'SIGINT'],
    ['config loaded', 'SIGTERM'],
    ['prompt loaded', 'SIGINT'],
  ] as const)('at "%s", %s: exit 130, "interrupted", no stack, no model call', async (phase, signal) => {
    project = await cliProject();
    const result = await stopAt(project, phase, signal);
    expect(result.signal).toBe(null);
    expect(withoutTrace(result.stderr)).toBe('interrupted: finished rows are saved\n');
    expect(result.code).toBe(130);
    expect(server.requests).toHaveLength(0);
  });
});

describe('SIGHUP', () => {
  it('ends a run as SIGTERM does: exit 130, the manifest interrupted, the command to resume it; the resume finishes', async () => {
    project = await cliProject();
    const made = project;
    server.setHandler(() => ({ hang: true }));
    let child: ChildProcess | undefined;
    const running = runCli(ARGS, { cwd: made.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' }, timeoutMs: 60_000, onSpawn: (spawned) => (child = spawned) });
    await expect.poll(() => server.requests.length, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
    child?.kill('SIGHUP');
    const result = await running;
    expect(result.signal).toBe(null);
    expect(result.code).toBe(130);
    const [id] = await made.runIds();
    expect(result.stderr).toBe(`interrupted: finished rows are saved; continue with: agentmark run-experiment --resume ${id} --no-cache -q --format jsonl -o /dev/null\n`);
    const manifest = JSON.parse(await made.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string };
    expect(manifest.status).toBe('interrupted');

    server.setHandler((request) => ({ text: request.lastUserText }));
    const resumed = await made.run(['run-experiment', '--resume', id as string, '--no-cache', '-q', '--format', 'jsonl', '-o', '/dev/null'], { server });
    expect(resumed.stderr).toBe('');
    // gamma's expected output is GAMMA: exact fails on it
    expect(resumed.code).toBe(1);
    expect(await made.results(id as string)).toHaveLength(3);
  });
});

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync('bash', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; s=$?; rmdir "$d"; exit $s']);
  return probe.status === 0;
}

describe.skipIf(!canMountTmpfs())('ENOSPC before the run folder exists (needs root and `mount -t tmpfs`; skipped where the machine does not allow it)', () => {
  it('a full .agentmark/: STORE_WRITE_FAILED naming the file it could not write, exit 2, no stack', async () => {
    project = await cliProject();
    const agentmark = join(project.dir, '.agentmark');
    await mkdir(agentmark);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', agentmark]).status).toBe(0);
    try {
      // Filled to the last block.
      await writeFile(join(agentmark, 'fill'), Buffer.alloc(64 * 1024)).catch(() => undefined);
      const result = await project.run(ARGS, { server });
      expect(result.stderr).toMatch(/^error: \.agentmark\/blobs\/([0-9a-f]{64}): cannot write \1: no space left on the device \(ENOSPC\)\n {2}hint: free some space, then run again\n$/);
      expect(result.code).toBe(2);
      expect(server.requests).toHaveLength(0);
    } finally {
      spawnSync('umount', [agentmark]);
    }
  });
});
