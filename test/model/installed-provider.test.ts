import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../src/errors/index.js';
import { createProviderRegistry, executeModelRequest } from '../../src/model/index.js';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { writeStandInProvider } from '../helpers/stand-in-provider.js';
import { tempProject } from '../helpers/temp-project.js';

const server = useOpenAIServer({ handler: (request) => ({ text: `${request.model} says hi` }) });

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempProject({ 'agentmark.json': '{}' }));
  process.env.STAND_IN_BASE_URL = server.url;
});
afterEach(async () => {
  delete process.env.STAND_IN_BASE_URL;
  await cleanup();
});

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

const request = (modelName: string) => ({ modelName, kind: 'text' as const, messages: [{ role: 'user' as const, content: 'hello' }], settings: {} });

describe('providers by prefix from the project’s installed @ai-sdk packages', () => {
  it('serves anthropic/… from @ai-sdk/anthropic installed in the project, through its ESM entry and our fetch', async () => {
    await writeStandInProvider(dir, '@ai-sdk/anthropic', 'createAnthropic', 'anthropic');
    const fetched: string[] = [];
    const recording: typeof fetch = (input, init) => {
      fetched.push(String(input));
      return fetch(input, init);
    };
    const registry = createProviderRegistry({ env: {}, projectRoot: dir, fetch: recording });
    expect(() => registry.ensure('anthropic/claude-sonnet-4-5')).not.toThrow();
    const response = await executeModelRequest(request('anthropic/claude-sonnet-4-5'), { registry, tools: {}, prices: {} });
    expect(response.output).toBe('@ai-sdk/anthropic:claude-sonnet-4-5 says hi');
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
    expect(fetched).toEqual([`${server.url}/chat/completions`]);
  });

  it('builds an installed provider\'s model once per run: the same object for every call of that model, another for another id', async () => {
    await writeStandInProvider(dir, '@ai-sdk/anthropic', 'createAnthropic', 'anthropic');
    const registry = createProviderRegistry({ env: {}, projectRoot: dir });
    const first = await registry.resolve('anthropic/claude-sonnet-4-5');
    expect(await registry.resolve('anthropic/claude-sonnet-4-5')).toBe(first);
    expect(await registry.resolve('anthropic/claude-haiku-4-5')).not.toBe(first);
  });

  it('finds the package from a parent folder (a monorepo root) and any other @ai-sdk/<prefix> with one create… export', async () => {
    const nested = join(dir, 'packages', 'evals');
    await mkdir(nested, { recursive: true });
    await writeStandInProvider(dir, '@ai-sdk/acme-ai', 'createAcmeAI', 'acmeAI');
    const registry = createProviderRegistry({ env: {}, projectRoot: nested });
    const response = await executeModelRequest(request('acme-ai/m1'), { registry, tools: {}, prices: {} });
    expect(response.output).toBe('@ai-sdk/acme-ai:m1 says hi');
  });

  it('a known provider that is not installed: exit-2 error naming the package and the major that works with ai 6', async () => {
    const registry = createProviderRegistry({ env: {}, projectRoot: dir });
    for (const [model, name] of [
      ['anthropic/claude', '@ai-sdk/anthropic'],
      ['google/gemini-2.5-flash', '@ai-sdk/google'],
      ['mistral/mistral-small', '@ai-sdk/mistral'],
      ['groq/llama-3.3-70b', '@ai-sdk/groq'],
    ] as const) {
      const error = thrown(() => registry.ensure(model, `--model ${model}`)) as UsageError;
      expect(error).toBeInstanceOf(UsageError);
      expect(error.code).toBe('USAGE_PROVIDER_NOT_INSTALLED');
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(`--model ${model} needs the AI SDK provider package ${name}, which is not installed in this project`);
      expect(error.hint).toBe(
        `run \`npm install ${name}@3\` in the project (major 3 is the one that works with ai 6), or register the provider under \`providers\` in agentmark.config.ts`,
      );
    }
    await expect(registry.resolve('anthropic/claude')).rejects.toMatchObject({ code: 'USAGE_PROVIDER_NOT_INSTALLED' });
    // Neither known nor installed: the unknown-provider error, as before.
    expect(thrown(() => registry.ensure('acme/x'))).toMatchObject({ code: 'USAGE_UNKNOWN_PROVIDER', message: 'unknown provider "acme" in model "acme/x" (known: openai)' });
    // A prefix that cannot name a package is never looked up.
    expect(thrown(() => registry.ensure('../x/y'))).toMatchObject({ code: 'USAGE_UNKNOWN_PROVIDER' });
  });

  it('a registered provider wins over an installed package', async () => {
    await writeStandInProvider(dir, '@ai-sdk/anthropic', 'createAnthropic', 'anthropic');
    const registry = createProviderRegistry({
      env: {},
      projectRoot: dir,
      providers: { anthropic: () => { throw new Error('mine was called'); } },
    });
    await expect(registry.resolve('anthropic/claude')).rejects.toThrow('mine was called');
  });

  it('a package with several create… exports and none matching the prefix is a ConfigError naming them', async () => {
    await writeStandInProvider(dir, '@ai-sdk/multi', 'createOne', 'one');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'node_modules/@ai-sdk/multi/dist/index.mjs'), 'export function createOne() {}\nexport function createTwo() {}\n');
    const registry = createProviderRegistry({ env: {}, projectRoot: dir });
    const error = await registry.resolve('multi/x').catch((e: unknown) => e as ConfigError);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe('cannot tell which export of the package makes the "multi" provider (create… exports: createOne, createTwo)');
  });
});
