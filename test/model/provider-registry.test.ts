import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ModelCallError, UsageError } from '../../src/errors/index.js';
import { createProviderRegistry, executeModelRequest, type ModelRequest } from '../../src/model/index.js';
import { useOpenAIServer } from '../helpers/openai-server.js';

const SECRET = 'sk-proj-SECRET-abc123';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a rejection');
  return error;
}

describe('createProviderRegistry', () => {
  it('resolves user-registered prefixes, which win over the built-in openai', async () => {
    const mine = new MockLanguageModelV3({ modelId: 'x' });
    const seen: string[] = [];
    const registry = createProviderRegistry({
      env: {},
      providers: {
        openai: (id) => {
          seen.push(id);
          return mine;
        },
        local: () => mine,
      },
    });
    expect(await registry.resolve('openai/gpt-4o')).toBe(mine);
    expect(await registry.resolve('local/llama/3.1')).toBe(mine);
    expect(seen).toEqual(['gpt-4o']);
    expect(registry.prefixes).toEqual(['local', 'openai']);
  });

  it.each(['gpt-4o', '/gpt-4o', 'openai/'])('rejects the malformed name %j with a UsageError listing known prefixes', async (name) => {
    const registry = createProviderRegistry({ env: {}, providers: { mock: () => new MockLanguageModelV3() } });
    const error = await rejection(registry.resolve(name));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'USAGE_MODEL_NAME' });
    expect(error.message).toBe(`model "${name}" is not of the form provider/model (known providers: mock, openai)`);
  });

  it('rejects an unknown prefix, listing the known ones', async () => {
    const error = await rejection(createProviderRegistry({ env: {} }).resolve('acme/claude'));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'USAGE_UNKNOWN_PROVIDER' });
    expect(error.message).toBe('unknown provider "acme" in model "acme/claude" (known: openai)');
  });

  it('needs an API key or a base URL for openai', async () => {
    const error = await rejection(createProviderRegistry({ env: {} }).resolve('openai/gpt-4o'));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'MODEL_NO_API_KEY', retryable: false });
    expect((error as ModelCallError).hint).toBe(
      'set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server), or run with the recorded cache (--cache-only)',
    );
  });

  it('picks the responses API without a base URL and chat completions with one, unless forced', async () => {
    const key = { OPENAI_API_KEY: 'k' };
    const provider = async (options: Parameters<typeof createProviderRegistry>[0]) => {
      const model = await createProviderRegistry(options).resolve('openai/gpt-4o');
      return typeof model === 'string' ? model : model.provider;
    };
    expect(await provider({ env: key })).toBe('openai.responses');
    expect(await provider({ env: key, baseURL: 'http://127.0.0.1:1/v1' })).toBe('openai.chat');
    expect(await provider({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' } })).toBe('openai.chat');
    expect(await provider({ env: key, openaiApi: 'chat' })).toBe('openai.chat');
    expect(await provider({ env: key, baseURL: 'http://127.0.0.1:1/v1', openaiApi: 'responses' })).toBe('openai.responses');
  });
});

describe('the API key stays secret', () => {
  const server = useOpenAIServer();

  it('never appears in an error message, even when the server echoes it', async () => {
    server.setHandler((req) => ({ status: 401, message: `Incorrect API key provided: ${req.authorization ?? ''}` }));
    const registry = createProviderRegistry({ baseURL: server.url, env: { OPENAI_API_KEY: SECRET } });
    const request: ModelRequest = { modelName: 'openai/gpt-4o', kind: 'text', messages: [{ role: 'user', content: 'hi' }], settings: {} };
    const error = await rejection(executeModelRequest(request, { registry }));
    expect(error).toMatchObject({ code: 'MODEL_AUTH_FAILED', statusCode: 401, retryable: false });
    expect(error.message).toBe('openai/gpt-4o: HTTP 401 not authorised: Incorrect API key provided: Bearer [redacted]');
    expect(JSON.stringify({ message: error.message, hint: (error as ModelCallError).hint })).not.toContain(SECRET);
  });
});

describe('openai models are built once per id', () => {
  /** A fetch that records each request's headers and answers a chat completion. */
  function recordingFetch(seen: Array<Record<string, string>>): typeof fetch {
    return async (_input, init) => {
      seen.push({ ...(init?.headers as Record<string, string>) });
      const body = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
  }
  const request: ModelRequest = { kind: 'text', modelName: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], settings: {} };

  it('the same model object serves every call, sending the headers a provider made per call sends', async () => {
    const env = { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const ours: Array<Record<string, string>> = [];
    const registry = createProviderRegistry({ env, fetch: recordingFetch(ours) });
    expect(await registry.resolve('openai/gpt-4o-mini')).toBe(await registry.resolve('openai/gpt-4o-mini'));
    await executeModelRequest(request, { registry });
    await executeModelRequest(request, { registry });

    // The reference: the provider as it comes, made through createOpenAI for each call.
    const { createOpenAI } = await import('@ai-sdk/openai');
    const plain: Array<Record<string, string>> = [];
    const reference = createProviderRegistry({
      env: {},
      providers: { openai: (id) => createOpenAI({ apiKey: SECRET, baseURL: env.OPENAI_BASE_URL, fetch: recordingFetch(plain) }).chat(id) },
    });
    await executeModelRequest(request, { registry: reference });
    await executeModelRequest(request, { registry: reference });

    expect(ours).toHaveLength(2);
    expect(ours).toEqual(plain);
    expect(ours[0]).toMatchObject({ authorization: `Bearer ${SECRET}` });
    expect(ours[0]?.['user-agent']).toMatch(/ai-sdk\/openai\/\d+\.\d+\.\d+/);
  });
});
