import type { SimulatorSpend } from '../conversation/index.js';

/** Adds up the simulated users' spend over a run's rows (see RunSummary.simulator). */
export class SimulatorTally {
  private calls = 0;
  private readonly usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  private cost: number | undefined = 0;

  add(spend: SimulatorSpend): void {
    this.calls += spend.calls;
    this.usage.inputTokens += spend.usage.inputTokens;
    this.usage.outputTokens += spend.usage.outputTokens;
    this.usage.totalTokens += spend.usage.totalTokens;
    // A live simulator call without a price makes the total unknown, as for the model's.
    if (spend.usage.totalTokens > 0 || spend.costUsd !== undefined) {
      this.cost = this.cost === undefined || spend.costUsd === undefined ? undefined : this.cost + spend.costUsd;
    }
  }

  /** The run's simulator spend; undefined when no row had a simulator. */
  spend(): SimulatorSpend | undefined {
    if (this.calls === 0) return undefined;
    return { calls: this.calls, usage: { ...this.usage }, ...(this.cost === undefined ? {} : { costUsd: this.cost }) };
  }
}
