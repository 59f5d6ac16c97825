import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scorersFromRegistry } from '../../src/project/client-registry.js';
import { loadConfig, loadProject } from '../../src/project/index.js';
import { params } from '../scoring/fixtures.js';
import { makeTempDir } from './temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function project(files: Record<string, string>) {
  const temp = await makeTempDir({ 'agentmark.json': '{}', ...files });
  cleanups.push(temp.cleanup);
  return { dir: temp.dir, project: await loadProject(temp.dir) };
}

const matches = ({ output, expectedOutput }: { output: unknown; expectedOutput?: unknown }) => ({ passed: output === expectedOutput });

describe('scorersFromRegistry', () => {
  it('reads a plain object of eval functions, skipping what is not a function', async () => {
    const scorers = scorersFromRegistry({ exact_match: matches, note: 'not an eval' }, []);
    expect(Object.keys(scorers ?? {})).toEqual(['exact_match']);
    expect(await scorers?.['exact_match']?.(params({ output: 'a', expectedOutput: 'a' }))).toEqual({ passed: true });
  });

  it('reads a Map, and an EvalRegistry-like object through get() for the names asked for', async () => {
    expect(Object.keys(scorersFromRegistry(new Map([['exact_match', matches]]), []) ?? {})).toEqual(['exact_match']);
    class Registry {
      private readonly evals = new Map<string, typeof matches>([['exact_match', matches]]);
      get(name: string) {
        return this.evals.get(name);
      }
    }
    const scorers = scorersFromRegistry(new Registry(), ['exact_match', 'unknown']);
    expect(Object.keys(scorers ?? {})).toEqual(['exact_match']);
    expect(await scorers?.['exact_match']?.(params({ output: 'a', expectedOutput: 'b' }))).toEqual({ passed: false });
  });

  it('no registry is no scorers; a value of another kind is not a registry', () => {
    expect(scorersFromRegistry(undefined, [])).toEqual({});
    expect(scorersFromRegistry(null, [])).toEqual({});
    expect(scorersFromRegistry(42, [])).toBeUndefined();
  });

  it('an eval function gets our params as one argument, as AgentMark calls it', async () => {
    const seen: unknown[][] = [];
    const scorers = scorersFromRegistry({ spy: (...args: unknown[]) => (seen.push(args), { score: 1 }) }, []);
    const given = params({ output: 'x', expectedOutput: 'y', input: { q: 1 } });
    await scorers?.['spy']?.(given, { signal: new AbortController().signal });
    expect(seen).toEqual([[given]]);
  });
});

describe('loadConfig with the AgentMark client', () => {
  const client = (registry: string) => `const evals = ${registry};\nexport const client = { getEvalRegistry: () => evals };\n`;

  it("merges the client's scorers; the config wins on a shared name, and the warning names both files", async () => {
    const { project: loaded, dir } = await project({
      'agentmark.config.ts': 'export default { scorers: { shared: () => ({ score: 1 }) } };\n',
      'agentmark.client.ts': client('{ shared: () => ({ score: 0 }), only_client: () => ({ passed: true }) }'),
    });
    const config = await loadConfig(loaded, { client: true });
    expect(Object.keys(config.scorers ?? {}).sort()).toEqual(['only_client', 'shared']);
    expect(await config.scorers?.['shared']?.(params({}))).toEqual({ score: 1 });
    expect(config.warnings).toEqual(['scorer shared is registered in both agentmark.config.ts and agentmark.client.ts: the one in agentmark.config.ts is used']);
    expect(config.client).toEqual({ path: path.join(dir, 'agentmark.client.ts') });
    expect(config.files).toContain(path.join(dir, 'agentmark.client.ts'));
  });

  it('reads the default export when there is no `client` export, and nothing without { client: true }', async () => {
    const { project: loaded } = await project({ 'agentmark.client.mjs': 'export default { getEvalRegistry: () => ({ from_default: () => ({ score: 1 }) }) };\n' });
    expect(Object.keys((await loadConfig(loaded, { client: true })).scorers ?? {})).toEqual(['from_default']);
    expect((await loadConfig(loaded)).scorers).toBeUndefined();
  });

  it('a client that throws while loading is a warning with the reason, never an error', async () => {
    const { project: loaded, dir } = await project({ 'agentmark.client.ts': 'throw new Error("the loader wants a server at localhost:9418");\nexport const client = {};\n' });
    const config = await loadConfig(loaded, { client: true });
    expect(config.scorers).toEqual({});
    expect(config.client).toEqual({ path: path.join(dir, 'agentmark.client.ts'), error: 'the loader wants a server at localhost:9418' });
    expect(config.warnings).toEqual(['agentmark.client.ts could not be loaded, so its eval functions are not registered: the loader wants a server at localhost:9418']);
  });

  it('a config that imports the client itself (as agentmark migrate writes it) takes its scorers over: no second read, no warning', async () => {
    const { project: loaded } = await project({
      'agentmark.client.ts': client('{ shared: () => ({ score: 0 }) }'),
      'agentmark.config.ts': "import { client } from './agentmark.client';\nconst evals = client.getEvalRegistry();\nexport default { scorers: { shared: evals.shared } };\n",
    });
    const config = await loadConfig(loaded, { client: true });
    expect(config.warnings).toBeUndefined();
    expect(config.client).toBeUndefined();
    expect(Object.keys(config.scorers ?? {})).toEqual(['shared']);
  });
});
