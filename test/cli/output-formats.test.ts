import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Every command with -o picks the format from the file's extension, as run-experiment does; an
// extension that names another format than --format is a usage error (exit 2), nothing written.
let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
  for (let i = 0; i < 3; i++) await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--format', 'jsonl'], { server });
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const html = async (name: string): Promise<string> => readFile(join(project.dir, name), 'utf8');

describe('-o picks the format', () => {
  it('compare of three runs -o grid.html writes the HTML page; of two runs -o x.json writes JSON, -o x.md markdown', { timeout: 60_000 }, async () => {
    const grid = await project.run(['compare', 'latest~2', 'latest~1', 'latest', '-o', 'grid.html']);
    expect(grid.code).toBe(0);
    expect((await html('grid.html')).startsWith('<!doctype html>')).toBe(true);
    const json = await project.run(['compare', 'latest~1', 'latest', '-o', 'pair.json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(await html('pair.json'))).toHaveProperty('gate');
    expect((await project.run(['compare', 'latest~1', 'latest', '-o', 'pair.md'])).code).toBe(0);
    expect(await html('pair.md')).toContain('|');
    expect(await html('pair.md')).not.toContain('┌');
  });

  it('an extension that does not match --format, or names a format the command does not write, is exit 2', { timeout: 60_000 }, async () => {
    const compare = await project.run(['compare', 'latest~1', 'latest', '--format', 'json', '-o', 'other.html']);
    expect([compare.code, compare.stderr]).toEqual([2, 'error: --format json does not match -o other.html, which names html\n  hint: drop --format (the extension picks html), or name the file for json\n']);
    const csv = await project.run(['compare', 'latest~1', 'latest', '-o', 'pair.csv']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('-o pair.csv: compare cannot be written as csv');
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--format', 'csv', '-o', 'report.json'], { server });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--format csv does not match -o report.json, which names json');
    const shown = await project.run(['runs', 'show', 'latest', '--format', 'table', '-o', 'shown.md']);
    expect(shown.code).toBe(2);
    await expect(readFile(join(project.dir, 'other.html'))).rejects.toThrow();
    await expect(readFile(join(project.dir, 'report.json'))).rejects.toThrow();
  });
});
