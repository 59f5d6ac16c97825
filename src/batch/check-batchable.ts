import { UsageError } from '../errors/index.js';
import { splitModelName } from '../model/index.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { BoundEval } from '../scoring/index.js';

export interface BatchableFacts {
  prompt: LoadedPrompt;
  modelName: string;
  /** Providers registered in the project's config, by prefix. */
  customProviders: readonly string[];
  evals: readonly BoundEval[];
  judgeLive: boolean;
  cacheMode: 'use' | 'off' | 'only';
}

/** Built-ins whose scorer calls a model (a judge). */
const JUDGES = new Set(['llm_judge', 'accuracy']);

/**
 * What `--batch` cannot do, refused before anything runs (exit 2): tool-calling prompts (each
 * round trip needs the previous answer, so a row would need a job per step), models of other
 * providers than the built-in OpenAI one, and judge evals without `--judge-live` (judges are
 * not sent as batches yet).
 */
export function checkBatchable(facts: BatchableFacts): void {
  const tools = facts.prompt.frontmatter.text_config?.tools ?? [];
  if (tools.length > 0) {
    throw new UsageError('USAGE_BATCH_TOOLS', `--batch cannot run a prompt with tools (${tools.join(', ')}): each tool round trip needs the previous answer`, {
      hint: 'run this prompt without --batch',
    });
  }
  const { provider } = splitModelName(facts.modelName, ['openai', ...facts.customProviders]);
  if (provider !== 'openai' || facts.customProviders.includes('openai')) {
    throw new UsageError('USAGE_BATCH_PROVIDER', `--batch sends jobs to the OpenAI Batch API, but ${facts.modelName} is served by ${provider === 'openai' ? 'a provider from agentmark.config' : `the "${provider}" provider`}`, {
      hint: 'use an openai/... model with the built-in provider (OPENAI_BASE_URL may point at a compatible server with the Batch API), or run without --batch',
    });
  }
  if (facts.cacheMode === 'only') {
    throw new UsageError('USAGE_CONFLICT', '--batch and --cache-only cannot be used together: --cache-only never calls a model');
  }
  const judges = facts.evals.filter((bound) => bound.builtin !== undefined && JUDGES.has(bound.builtin)).map((bound) => bound.name);
  if (judges.length > 0 && !facts.judgeLive) {
    throw new UsageError('USAGE_BATCH_JUDGE', `--batch does not send judge calls as batches yet, and this prompt has LLM-judge evals (${judges.join(', ')})`, {
      hint: 'add --judge-live: judge calls then run live, as each batch answer is scored',
    });
  }
}
