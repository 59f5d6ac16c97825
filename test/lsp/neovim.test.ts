import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/run-cli.js';
import { lspProject } from './lsp-project.js';

const CONFIG = fileURLToPath(new URL('./nvim/attach.lua', import.meta.url));
const hasNvim = spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;

describe('agentmark lsp in a real editor', () => {
  // .ci/run installs Debian's neovim; a machine without it cannot run this one test.
  it.skipIf(!hasNvim)('Neovim (headless, built-in LSP client) attaches agentmark lsp and receives the prompt\'s diagnostics', async () => {
    const project = await lspProject();
    try {
      const out = join(project.dir, 'nvim-diagnostics.json');
      const nvim = spawn('nvim', ['--headless', '-n', '-i', 'NONE', '--clean', '-u', CONFIG], {
        cwd: project.dir,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { PATH: process.env.PATH, HOME: project.dir, AGENTMARK_NVIM_ROOT: project.dir, AGENTMARK_NVIM_OUT: out, AGENTMARK_NODE: process.execPath, AGENTMARK_BIN: BIN },
      });
      let stderr = '';
      nvim.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => nvim.on('exit', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const published = JSON.parse(await readFile(out, 'utf8')) as { uri: string; diagnostics: Array<{ code: string; range: unknown; message: string }> };
      expect(published.uri.endsWith('/prompts/greet.prompt.mdx')).toBe(true);
      expect(published.diagnostics.map((d) => [d.code, d.range])).toEqual([['EVAL_NOT_FOUND', { start: { line: 11, character: 10 }, end: { line: 11, character: 20 } }]]);
      expect(published.diagnostics[0]?.message).toContain('did you mean "exact_match"?');
    } finally {
      await project.cleanup();
    }
  });
});
