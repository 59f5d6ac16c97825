import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tool } from 'ai';
import { ModelCallError } from '../errors/index.js';
import { createProviderRegistry, executeModelRequest, type ProviderRegistry } from '../model/index.js';
import type { ModelPrice, ModelRequest, ModelResponse } from '../model/types.js';
import type { BatchApiName, BatchEndpoint } from './types.js';

/** One exchange with the provider: either record the request it sends, or hand it a stored answer. */
type Exchange = { kind: 'capture'; captured?: { url: string; body: string; beta: string | undefined } } | { kind: 'answer'; body: string };

/** A request the live path would send, ready to be a batch line. */
export interface CapturedRequest {
  endpoint: BatchEndpoint;
  body: Record<string, unknown>;
}

/** The endpoints each batch API runs. */
const ENDPOINTS: Record<BatchApiName, readonly BatchEndpoint[]> = {
  openai: ['/v1/chat/completions', '/v1/responses'],
  anthropic: ['/v1/messages'],
};

export interface ProviderBridgeOptions {
  /** @default 'openai' */
  api?: BatchApiName;
  baseURL: string;
  baseURLSet: boolean;
  env: NodeJS.ProcessEnv;
  tools: Record<string, Tool>;
  prices: Record<string, ModelPrice>;
  /** Where `@ai-sdk/anthropic` is installed (the user's project), for `anthropic`. */
  projectRoot?: string;
}

/** The request the provider sent; thrown out of its fetch so that nothing goes on the wire. */
class Captured extends Error {}

/**
 * The same provider the live path uses (the built-in `@ai-sdk/openai`, or the project's
 * `@ai-sdk/anthropic`), with a `fetch` that never touches the
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
  /** Whose batch API the captured requests go to (the provider they are captured from). */
  readonly api: BatchApiName;
  /** Anthropic: the `anthropic-beta` features the captured requests asked for (a batch sends them in its create request's header). */
  readonly betas = new Set<string>();

  constructor(options: ProviderBridgeOptions) {
    this.api = options.api ?? 'openai';
    this.#baseURL = options.baseURL.replace(/\/+$/, '');
    this.#tools = options.tools;
    this.#prices = options.prices;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const exchange = this.#exchanges.getStore();
      if (exchange === undefined) throw new Error('a provider request outside a batch exchange');
      if (exchange.kind === 'capture') {
        exchange.captured = { url: String(input instanceof Request ? input.url : input), body: String(init?.body ?? ''), beta: new Headers(init?.headers).get('anthropic-beta') ?? undefined };
        throw new Captured('captured');
      }
      return new Response(exchange.body, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    // Only the built-in OpenAI provider or the installed Anthropic one: custom providers are
    // refused before a batch run starts.
    this.#registry = createProviderRegistry({
      env: { ...options.env, OPENAI_API_KEY: options.env.OPENAI_API_KEY ?? 'batch', ...(options.baseURLSet && this.api === 'openai' ? { OPENAI_BASE_URL: this.#baseURL } : {}) },
      fetch,
      ...(options.projectRoot === undefined ? {} : { projectRoot: options.projectRoot }),
    });
  }

  /** One line of a request file: OpenAI's `{ custom_id, method, url, body }`, Anthropic's `{ custom_id, params }` (custom id first). */
  line(customId: string, captured: CapturedRequest): string {
    if (this.api === 'anthropic') return JSON.stringify({ custom_id: customId, params: captured.body });
    return JSON.stringify({ custom_id: customId, method: 'POST', url: captured.endpoint, body: captured.body });
  }

  /** The endpoint path and JSON body the live call would post for this request. */
  async capture(request: ModelRequest): Promise<CapturedRequest> {
    const exchange: Exchange = { kind: 'capture' };
    await this.#exchanges
      .run(exchange, () => executeModelRequest(request, { registry: this.#registry, tools: this.#tools, maxRetries: 0 }))
      .catch(() => undefined);
    const captured = exchange.captured;
    if (captured === undefined) {
      throw new ModelCallError('MODEL_BATCH_UNSUPPORTED_REQUEST', `${request.modelName}: the provider made no request to capture`);
    }
    const path = captured.url.startsWith(this.#baseURL) ? captured.url.slice(this.#baseURL.length) : new URL(captured.url).pathname.replace(/^\/v1/, '');
    const endpoint = `/v1${path}` as BatchEndpoint;
    if (!ENDPOINTS[this.api].includes(endpoint)) {
      const service = this.api === 'anthropic' ? "Anthropic's Message Batches API" : 'the Batch API';
      throw new ModelCallError('MODEL_BATCH_UNSUPPORTED_REQUEST', `${request.modelName}: the provider posts to ${endpoint}, which ${service} does not run`);
    }
    for (const beta of captured.beta?.split(',') ?? []) if (beta.trim() !== '') this.betas.add(beta.trim());
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
