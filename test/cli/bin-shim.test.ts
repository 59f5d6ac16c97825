/**
 * The package's bin, dist/bundle/agentmark.cjs: `--version` and `--help` answered from text
 * written into it at build time, every other command handed to the CLI bundle it imports.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { globalHelp } from '../../src/cli/global-help.js';
import { BIN, runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; bin: Record<string, string> };

describe('the bin', () => {
  it('is the file package.json names', () => {
    expect(manifest.bin).toEqual({ agentmark: relative(root, BIN) });
  });

  it('prints the package version for --version and -v, exit 0', async () => {
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag], { cwd: root });
      expect(result).toMatchObject({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
    }
  });

  it('prints the same help as the CLI for --help, -h and help (exit 0), and with no command (exit 2)', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      expect(await runCli(args, { cwd: root })).toMatchObject({ code: 0, stdout: globalHelp(), stderr: '' });
    }
    expect(await runCli([], { cwd: root })).toMatchObject({ code: 2, stdout: globalHelp(), stderr: '' });
  });

  it('hands every other command to the CLI, with its output and exit code', async () => {
    const unknown = await runCli(['nosuch'], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error: unknown command "nosuch"\n  hint: run `agentmark --help` to list the commands\n');
    const help = await runCli(['render', '--help'], { cwd: root });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agentmark render /);
  });

  it('is quiet when its reader goes away (`agentmark --help | head -1`)', () => {
    for (const flag of ['--help', '--version']) {
      const piped = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" ${flag} 2>err.txt | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"; cat err.txt; rm err.txt`], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(piped.stdout).toBe('0\n');
    }
  });
});
