import { ModelCallError, UsageError } from '../errors/index.js';
import { splitModelName } from '../model/index.js';
import type { LoadedPrompt } from '../prompt/types.js';
import { DEFAULT_JUDGE_MODEL } from '../scoring/builtins/llm-judge.js';
import type { BoundEval } from '../scoring/index.js';

export interface BatchableFacts {
  prompt: LoadedPrompt;
  modelName: string;
  /** Providers registered in the project's config, by prefix. */
  customProviders: readonly string[];
  evals: readonly BoundEval[];
  judgeLive: boolean;
  /** The run's judge model (`--judge-model`, else the config's), for judges whose options name none. */
  judgeModel: string | undefined;
  cacheMode: 'use' | 'off' | 'only';
  /** The run's environment: an Anthropic batch needs ANTHROPIC_API_KEY. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** Providers whose batch API `--batch` drives: the built-in OpenAI one, and `@ai-sdk/anthropic` installed in the project. */
const BATCH_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'anthropic']);

/** Built-ins whose scorer calls a model (a judge). */
const JUDGES = new Set(['llm_judge', 'accuracy']);

/**
 * What `--batch` cannot do, refused before anything runs (exit 2): tool-calling prompts (each
 * round trip needs the previous answer, so a row would need a job per step), models of other
 * providers than the built-in OpenAI one and the installed Anthropic one, and judge evals whose
 * judge model is not of the run's own provider, without `--judge-live` (their calls go in judge
 * jobs of the same batch API). A judge prompt of the user's own
 * that names its model is only known once rendered: that case is refused when first captured.
 */
export function checkBatchable(facts: BatchableFacts): void {
  const tools = facts.prompt.frontmatter.text_config?.tools ?? [];
  if (tools.length > 0) {
    throw new UsageError('USAGE_BATCH_TOOLS', `--batch cannot run a prompt with tools (${tools.join(', ')}): each tool round trip needs the previous answer`, {
      hint: 'run this prompt without --batch',
    });
  }
  const { provider } = splitModelName(facts.modelName, ['openai', ...facts.customProviders]);
  if (!BATCH_PROVIDERS.has(provider) || facts.customProviders.includes(provider)) {
    throw new UsageError('USAGE_BATCH_PROVIDER', `--batch sends jobs to the OpenAI Batch API or Anthropic's Message Batches API, but ${facts.modelName} is served by ${BATCH_PROVIDERS.has(provider) ? 'a provider from agentmark.config' : `the "${provider}" provider`}`, {
      hint: 'use an openai/... model with the built-in provider (OPENAI_BASE_URL may point at a compatible server with the Batch API) or an anthropic/... one with @ai-sdk/anthropic installed, or run without --batch',
    });
  }
  if (provider === 'anthropic' && !(facts.env ?? process.env).ANTHROPIC_API_KEY?.trim()) {
    throw new ModelCallError('MODEL_NO_API_KEY', `no Anthropic API key for the batch jobs of ${facts.modelName}`, {
      hint: 'set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another server than api.anthropic.com)',
    });
  }
  if (facts.cacheMode === 'only') {
    throw new UsageError('USAGE_CONFLICT', '--batch and --cache-only cannot be used together: --cache-only never calls a model');
  }
  if (facts.judgeLive) return;
  for (const bound of facts.evals) {
    if (bound.builtin === undefined || !JUDGES.has(bound.builtin)) continue;
    const named = bound.schema?.options?.['model'];
    const judgeModel = typeof named === 'string' ? named : (facts.judgeModel ?? DEFAULT_JUDGE_MODEL);
    const judge = splitModelName(judgeModel, ['openai', ...facts.customProviders]).provider;
    if (judge === provider) continue;
    const service = provider === 'anthropic' ? "Anthropic's Message Batches API" : 'the OpenAI Batch API';
    throw new UsageError('USAGE_BATCH_JUDGE', `--batch sends the judge calls of eval ${bound.name} as batch jobs too, but its judge model ${judgeModel} is served by the "${judge}" provider, not ${service}`, {
      hint: 'add --judge-live: judge calls then run live, as each batch answer is scored',
    });
  }
}
