import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tool } from 'ai';
import { ModelCallError } from '../errors/index.js';
import { createProviderRegistry, executeModelRequest, type ProviderRegistry } from '../model/index.js';
import type { ModelPrice, ModelRequest, ModelResponse } from '../model/types.js';
import type { BatchEndpoint } from './types.js';

/** One exchange with the provider: either record the request it sends, or hand it a stored answer. */
type Exchange = { kind: 'capture'; captured?: { url: string; body: string } } | { kind: 'answer'; body: string };

/** The request the provider sent; thrown out of its fetch so that nothing goes on the wire. */
class Captured extends Error {}

/**
 * The same `@ai-sdk/openai` provider the live path uses, with a `fetch` that never touches the
 * network: to build a batch line it records the request the provider would send (so the batch
 * body is exactly the live body: messages, settings, structured output), and to read a batch
 * answer it hands the provider the response body from the output file, so the answer is parsed,
 * validated and counted exactly as a live one. Which exchange a call is part of travels with
 * the call (AsyncLocalStorage), since the provider is shared.
 */
export class ProviderBridge {
  readonly #exchanges = new AsyncLocalStorage<Exchange>();
  readonly #registry: ProviderRegistry;
  readonly #tools: Record<string, Tool>;
  readonly #prices: Record<string, ModelPrice>;
  readonly #baseURL: string;

  constructor(options: { baseURL: string; baseURLSet: boolean; env: NodeJS.ProcessEnv; tools: Record<string, Tool>; prices: Record<string, ModelPrice> }) {
    this.#baseURL = options.baseURL.replace(/\/+$/, '');
    this.#tools = options.tools;
    this.#prices = options.prices;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const exchange = this.#exchanges.getStore();
      if (exchange === undefined) throw new Error('a provider request outside a batch exchange');
      if (exchange.kind === 'capture') {
        exchange.captured = { url: String(input instanceof Request ? input.url : input), body: String(init?.body ?? '') };
        throw new Captured('captured');
      }
      return new Response(exchange.body, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    // Only the built-in OpenAI provider: custom providers are refused before a batch run starts.
    this.#registry = createProviderRegistry({
      env: { ...options.env, OPENAI_API_KEY: options.env.OPENAI_API_KEY ?? 'batch', ...(options.baseURLSet ? { OPENAI_BASE_URL: this.#baseURL } : {}) },
      fetch,
    });
  }

  /** The endpoint path and JSON body the live call would post for this request. */
  async capture(request: ModelRequest): Promise<{ endpoint: BatchEndpoint; body: Record<string, unknown> }> {
    const exchange: Exchange = { kind: 'capture' };
    await this.#exchanges
      .run(exchange, () => executeModelRequest(request, { registry: this.#registry, tools: this.#tools, maxRetries: 0 }))
      .catch(() => undefined);
    const captured = exchange.captured;
    if (captured === undefined) {
      throw new ModelCallError('MODEL_BATCH_UNSUPPORTED_REQUEST', `${request.modelName}: the provider made no request to capture`);
    }
    const path = captured.url.startsWith(this.#baseURL) ? captured.url.slice(this.#baseURL.length) : new URL(captured.url).pathname.replace(/^\/v1/, '');
    const endpoint = `/v1${path}`;
    if (endpoint !== '/v1/chat/completions' && endpoint !== '/v1/responses') {
      throw new ModelCallError('MODEL_BATCH_UNSUPPORTED_REQUEST', `${request.modelName}: the provider posts to ${endpoint}, which the Batch API does not run`);
    }
    return { endpoint, body: JSON.parse(captured.body) as Record<string, unknown> };
  }

  /** A batch answer (the `response.body` of an output line) read by the provider as if it had just arrived. */
  async answer(request: ModelRequest, body: unknown): Promise<ModelResponse> {
    const exchange: Exchange = { kind: 'answer', body: JSON.stringify(body) };
    return this.#exchanges.run(exchange, () =>
      executeModelRequest(request, { registry: this.#registry, tools: this.#tools, maxRetries: 0, prices: this.#prices }),
    );
  }
}
