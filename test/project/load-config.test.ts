import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentmarkError, ConfigError, ErrorList } from '../../src/errors/index.js';
import { defineConfig, loadConfig, loadProject } from '../../src/project/index.js';
import type { EvalParams } from '../../src/scoring/types.js';
import { params as evalParams } from '../scoring/fixtures.js';
import { makeTempDir } from './temp-dir.js';

const fixture = fileURLToPath(new URL('../fixtures/projects/basic', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function tempProject(files: Record<string, string>) {
  const temp = await makeTempDir({ 'agentmark.json': '{}', ...files });
  cleanups.push(temp.cleanup);
  return { ...temp, project: await loadProject(temp.dir) };
}

async function configError(files: Record<string, string>): Promise<{ error: AgentmarkError; dir: string }> {
  const { project, dir } = await tempProject(files);
  const error = await loadConfig(project).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AgentmarkError);
  return { error: error as AgentmarkError, dir };
}

const params = (output: string, expectedOutput: string): EvalParams => evalParams({ output, expectedOutput });

describe('loadConfig', () => {
  it('loads a TypeScript config with scorers and lists the files it imports, transitively', async () => {
    const project = await loadProject(fixture);
    const loaded = await loadConfig(project);
    expect(loaded.path).toBe(path.join(fixture, 'agentmark.config.ts'));
    expect(loaded.files).toEqual([
      path.join(fixture, 'agentmark.config.ts'),
      path.join(fixture, 'scorers/exact.ts'),
      path.join(fixture, 'scorers/normalise.ts'),
    ]);
    expect(Object.keys(loaded.scorers ?? {})).toEqual(['exact', 'length']);
    expect(await loaded.scorers?.['exact']?.(params(' Hello ', 'hello'))).toEqual({ passed: true });
    expect(loaded.prices).toEqual({ 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 } });
    expect(loaded.judgeModel).toBe('openai/gpt-4o-mini');
  });

  it('returns an empty config when the project has none', async () => {
    const { project } = await tempProject({});
    expect(await loadConfig(project)).toEqual({ path: undefined, files: [] });
  });

  it('takes a named `config` export, from .mjs', async () => {
    const { project, dir } = await tempProject({ 'agentmark.config.mjs': 'export const config = { baseURL: "http://127.0.0.1:1" };' });
    expect(await loadConfig(project)).toEqual({
      baseURL: 'http://127.0.0.1:1',
      path: path.join(dir, 'agentmark.config.mjs'),
      files: [path.join(dir, 'agentmark.config.mjs')],
    });
  });

  it('resolves extensionless, .js-for-.ts and index imports, and ignores packages and comments', async () => {
    const { project, dir } = await tempProject({
      'agentmark.config.ts': [
        "import { a } from './lib/a';",
        "import { b } from './lib/b.js';",
        "import * as c from './lib/c';",
        "export { d } from './lib/d';",
        "// import { gone } from './lib/gone';",
        "import { defineConfig } from 'node:path';",
        'export default { judgeModel: a + b + c.c };',
      ].join('\n'),
      'lib/a.ts': "export const a = 'a';",
      'lib/b.ts': "import '../shared.mjs';\nexport const b = 'b';",
      'lib/c/index.ts': "export const c = 'c';",
      'lib/d.ts': "export const d = 'd';",
      'shared.mjs': 'export {};',
    });
    const loaded = await loadConfig(project);
    expect(loaded.judgeModel).toBe('abc');
    expect(loaded.files.map((file) => path.relative(dir, file))).toEqual([
      'agentmark.config.ts',
      'lib/a.ts',
      'lib/b.ts',
      path.join('lib/c/index.ts'),
      'lib/d.ts',
      'shared.mjs',
    ]);
  });

  it('picks up edits on reload (no module cache), including in imported files', async () => {
    const { project, write } = await tempProject({
      'agentmark.config.ts': "import { model } from './model';\nexport default { judgeModel: model };",
      'model.ts': "export const model = 'openai/one';",
    });
    expect((await loadConfig(project)).judgeModel).toBe('openai/one');
    await write('model.ts', "export const model = 'openai/two';");
    expect((await loadConfig(project)).judgeModel).toBe('openai/two');
  });

  it('picks up edits of an ES module config on reload in the same process: .mjs, and .js in a "type": "module" package', async () => {
    // node's import() would cache these by URL for the life of the process.
    for (const [file, extra] of [
      ['agentmark.config.mjs', {}],
      ['agentmark.config.js', { 'package.json': '{ "type": "module" }' }],
    ] as const) {
      const { project, write } = await tempProject({
        ...extra,
        [file]: "import { model } from './model.ts';\nexport default { judgeModel: model, baseURL: 'http://one' };",
        'model.ts': "export const model: string = 'openai/one';",
      });
      expect(await loadConfig(project)).toMatchObject({ judgeModel: 'openai/one', baseURL: 'http://one' });
      await write(file, "import { model } from './model.ts';\nexport default { judgeModel: model, baseURL: 'http://two' };");
      expect(await loadConfig(project)).toMatchObject({ judgeModel: 'openai/one', baseURL: 'http://two' });
      // Its TypeScript import is evaluated afresh too.
      await write('model.ts', "export const model: string = 'openai/two';");
      expect(await loadConfig(project)).toMatchObject({ judgeModel: 'openai/two', baseURL: 'http://two' });
      // Top-level await and import.meta work as in a native module.
      await write(file, "const url = await Promise.resolve(import.meta.url);\nexport default { baseURL: url };");
      expect((await loadConfig(project)).baseURL).toBe(pathToFileURL(path.join(project.root, file)).href);
    }
  });

  it('reports a syntax error with file, line and column and no stack', async () => {
    const { error, dir } = await configError({ 'agentmark.config.ts': 'const x: number = 1;\nexport default { scorers: { a: ( } };\n' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.location).toEqual({ file: path.join(dir, 'agentmark.config.ts'), line: 2, column: 34 });
    expect(error.message).toMatch(/^syntax error: \S/);
    expect(error.format()).not.toContain('    at ');
  });

  it('reports a runtime error with the original message and where it was thrown', async () => {
    const { error, dir } = await configError({
      'agentmark.config.ts': "import './boom';\nexport default {};",
      'boom.ts': "const ready = false;\nif (!ready) throw new Error('no API key configured');\nexport {};",
    });
    expect(error.code).toBe('CONFIG_LOAD_FAILED');
    expect(error.message).toBe('loading the config failed: no API key configured');
    expect(error.location).toEqual({ file: path.join(dir, 'boom.ts'), line: 2, column: 19 });
    expect(error.hint).toBe(`imported by ${path.join(dir, 'agentmark.config.ts')}`);
  });

  it('reports a runtime error of an .mjs config where it was thrown (transpiled, its lines kept)', async () => {
    const { error, dir } = await configError({ 'agentmark.config.mjs': "const a = 1;\n\nif (a) throw new Error('no key');\nexport default {};\n" });
    expect(error.code).toBe('CONFIG_LOAD_FAILED');
    expect(error.message).toBe('loading the config failed: no key');
    expect(error.location).toEqual({ file: path.join(dir, 'agentmark.config.mjs'), line: 3, column: 14 });
  });

  it('reports every shape problem, naming the file and the key', async () => {
    const { error, dir } = await configError({
      'agentmark.config.js': [
        'export default {',
        '  scorers: { good: () => ({}), bad: "nope" },',
        '  providers: { openai: 3 },',
        '  prices: { "openai/x": { input: 1, output: -1 } },',
        '  judgeModel: 5,',
        '  scorer: {},',
        '};',
      ].join('\n'),
    });
    expect(error).toBeInstanceOf(ErrorList);
    const list = (error as ErrorList).errors;
    expect(list.map((e) => `${e.code} ${e.message}`)).toEqual([
      'CONFIG_INVALID scorers.bad must be a function (got "nope")',
      'CONFIG_INVALID providers.openai must be a function (got number)',
      'CONFIG_INVALID prices.openai/x.output must be a non-negative number of USD per million tokens (got number)',
      'CONFIG_INVALID judgeModel must be a string (got number)',
      'CONFIG_INVALID unknown config key "scorer"',
    ]);
    expect(list[4]?.hint).toBe('did you mean "scorers"?');
    for (const e of list) expect(e.location).toEqual({ file: path.join(dir, 'agentmark.config.js') });
  });

  it("checks otel: { … } field by field", async () => {
    const { error } = await configError({
      'agentmark.config.js': 'export default { otel: { endpoint: 4318, protocol: "grpc", timeoutSeconds: 0, headers: { a: 1 }, tracePer: "item", enabeld: true } };',
    });
    expect((error as ErrorList).errors.map((e) => e.message)).toEqual([
      'otel.endpoint must be a string (got number)',
      'otel.protocol must be "http/protobuf" or "http/json" (got "grpc")',
      'otel.timeoutSeconds must be a number of seconds above 0 (got number)',
      'otel.headers must be an object of strings',
      'otel.tracePer must be "run" or "row" (got "item")',
      'otel: unknown key "enabeld"; did you mean "enabled"?',
    ]);
  });

  it('checks rateLimit: { <provider>: { rpm?, tpm? } }', async () => {
    const { error } = await configError({
      'agentmark.config.js': 'export default { rateLimit: { openai: { rpm: 0 }, anthropic: { rps: 5 }, groq: 100 } };',
    });
    expect((error as ErrorList).errors.map((e) => e.message)).toEqual([
      'rateLimit.openai.rpm must be a number above 0 (got number)',
      'rateLimit.anthropic: unknown key "rps" (rpm: requests a minute, tpm: tokens a minute)',
      'rateLimit.groq must be { rpm?, tpm? } (got number)',
    ]);
  });

  it('rejects a config without a default export', async () => {
    const { error } = await configError({ 'agentmark.config.ts': 'export const other = 1;' });
    expect(error.code).toBe('CONFIG_NO_EXPORT');
  });
});

describe('defineConfig', () => {
  it('returns its argument unchanged', () => {
    const config = { judgeModel: 'openai/gpt-4o-mini' };
    expect(defineConfig(config)).toBe(config);
  });
});
