import { describe, expect, it } from 'vitest';
import { LspClient } from '../helpers/lsp-client.js';
import { runCli } from '../helpers/run-cli.js';
import { lspProject } from './lsp-project.js';

describe('agentmark lsp', () => {
  it('--help prints its usage and exits 0', async () => {
    const result = await runCli(['lsp', '--help'], { cwd: process.cwd() });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: agentmark lsp \[--stdio\]\n/);
  });

  it('answers initialize with its capabilities and exits 0 after shutdown and exit', async () => {
    const project = await lspProject();
    try {
      const client = await LspClient.start(project.dir);
      const code = await client.stop();
      expect(client.stderr).toBe('');
      expect(code).toBe(0);
    } finally {
      await project.cleanup();
    }
  });
});
