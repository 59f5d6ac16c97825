import type { ModelResponse } from '../model/types.js';
import type { JudgeSpend } from './types.js';

/**
 * Adds up LLM-judge answers (one row's, as they come back) or rows' judge spends (a run's).
 * A cached answer is counted, but costs nothing; a batch answer has no latency to add.
 */
export class JudgeTally {
  #calls = 0;
  #cached = 0;
  #inputTokens = 0;
  #outputTokens = 0;
  #totalTokens = 0;
  #cost = 0;
  /** A judge call made now had no known price: the sum would understate the spend. */
  #unpriced = false;
  #latencyMs = 0;

  /** Judge calls made now (live or batch): those that were paid for. */
  get paid(): number {
    return this.#calls - this.#cached;
  }

  addResponse(response: ModelResponse): void {
    this.#calls += 1;
    if (response.cached) {
      this.#cached += 1;
      return;
    }
    this.#addUsage(response.usage.inputTokens, response.usage.outputTokens, response.usage.totalTokens);
    if (response.costUsd === undefined) this.#unpriced = true;
    else this.#cost += response.costUsd;
    if (!response.batch) this.#latencyMs += response.latencyMs;
  }

  addSpend(spend: JudgeSpend): void {
    this.#calls += spend.calls;
    this.#cached += spend.cached;
    this.#addUsage(spend.usage.inputTokens, spend.usage.outputTokens, spend.usage.totalTokens);
    if (spend.costUsd === undefined) this.#unpriced ||= spend.calls > spend.cached;
    else this.#cost += spend.costUsd;
    this.#latencyMs += spend.latencyMs;
  }

  /** The spend so far; undefined when no judge was asked. */
  spend(): JudgeSpend | undefined {
    if (this.#calls === 0) return undefined;
    return {
      calls: this.#calls,
      cached: this.#cached,
      usage: { inputTokens: this.#inputTokens, outputTokens: this.#outputTokens, totalTokens: this.#totalTokens },
      ...(this.#unpriced ? {} : { costUsd: this.#cost }),
      latencyMs: this.#latencyMs,
    };
  }

  #addUsage(input: number, output: number, total: number): void {
    this.#inputTokens += input;
    this.#outputTokens += output;
    this.#totalTokens += total;
  }
}
