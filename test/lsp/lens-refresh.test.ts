import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Range } from '../helpers/lsp-client.js';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { lspProject, PROMPT } from './lsp-project.js';
import { useLspSession } from './lsp-session.js';

const { attach } = useLspSession();

// The model says "please" to the names in `polite`: the pass rate of the `polite` eval (contains "please") follows it.
const polite = new Set<string>();
const server = useOpenAIServer({ handler: (request) => ({ text: [...polite].some((name) => request.lastUserText.includes(name)) ? 'please sit' : 'sit' }) });

type Lens = { range: Range; command: { title: string } };

describe('agentmark lsp: code lenses follow the run store', () => {
  it('a run made by the CLI while the server runs: the server asks for the lenses again, and the pass rate above evals: is the new run\'s', async () => {
    const prompt = PROMPT.replace('evals: [exact_mach, polite]', 'evals: [polite]');
    const project = await lspProject({ 'prompts/greet.prompt.mdx': prompt, 'datasets/names.jsonl': '{"input": {"name": "Ada"}}\n{"input": {"name": "Bob"}}\n{"input": {"name": "Cy"}}\n{"input": {"name": "Di"}}\n' });
    const lsp = await attach(project, { debounceMs: 0 }, { codeLens: { refreshSupport: true } });
    expect(await lsp.open('prompts/greet.prompt.mdx')).toEqual([]);
    // An editor watches what the server registered: the run store's manifests among them.
    expect(lsp.watched).toContain('**/.agentmark/runs/*/manifest.json');
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    polite.clear();
    const lensTitles = async () => (await lsp.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => [l.range.start.line, l.command.title]);
    expect(await lensTitles()).toEqual([
      [9, 'Run experiment'],
      [9, 'Render row 0'],
    ]);

    const run = async (): Promise<void> => {
      const result = await runCli(['run-experiment', 'prompts/greet.prompt.mdx', '--no-cache'], { cwd: project.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
      expect(result.stderr).not.toContain('error');
      // What the editor's watcher reports once the CLI has written the run's manifest.
      const runs = await readdir(join(project.dir, '.agentmark', 'runs'));
      await lsp.filesChanged(runs.map((id) => `.agentmark/runs/${id}/manifest.json`));
    };

    polite.add('Ada');
    await run();
    await lsp.lensRefreshed(1);
    expect(await lensTitles()).toEqual([
      [9, 'Run experiment'],
      [9, 'Render row 0'],
      [9, 'Open last run'],
      [11, 'last run: polite 25%'],
    ]);

    polite.add('Bob');
    polite.add('Cy');
    await run();
    await lsp.lensRefreshed(2);
    expect((await lensTitles())[3]).toEqual([11, 'last run: polite 75%']);
  });

  it('a client that watches no files for the server: the server watches the run store itself', async () => {
    const prompt = PROMPT.replace('evals: [exact_mach, polite]', 'evals: [polite]');
    const project = await lspProject({ 'prompts/greet.prompt.mdx': prompt, 'datasets/names.jsonl': '{"input": {"name": "Ada"}}\n{"input": {"name": "Bob"}}\n' });
    const lsp = await attach(project, { debounceMs: 0 }, { didChangeWatchedFiles: { dynamicRegistration: false }, codeLens: { refreshSupport: true } });
    expect(await lsp.open('prompts/greet.prompt.mdx')).toEqual([]);
    expect(lsp.watched).toEqual([]);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    polite.clear();
    polite.add('Ada');
    const result = await runCli(['run-experiment', 'prompts/greet.prompt.mdx', '--no-cache'], { cwd: project.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
    expect(result.stderr).not.toContain('error');
    // No file event was sent by the client: the refresh comes from the server's own watcher.
    await lsp.lensRefreshed(1);
    const lenses = await lsp.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } });
    expect(lenses.map((l) => [l.range.start.line, l.command.title])[3]).toEqual([11, 'last run: polite 50%']);
  });
});
