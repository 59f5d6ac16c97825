import { ModelCallError } from '../errors/index.js';
import { ENV_FILES } from '../project/load-env.js';
import type { RowResult } from './types.js';

/** The row error codes of a call the provider answered with 401 or 403, or with a 429 saying the quota is spent. */
const REFUSED = new Set(['MODEL_AUTH_FAILED', 'MODEL_QUOTA_EXCEEDED']);

/**
 * Watches finished rows for a refused key. Every other row would be refused the same way (50 of
 * 50 requests were sent, and the run "failed" with exit 1), so the first refusal calls `onRefused`
 * once and the runner stops, as for an unreachable server. Refused rows are not recorded: they
 * were not run, and `--resume` runs them with a good key.
 */
export class KeyRefusal {
  #first: RowResult | undefined;

  constructor(private readonly onRefused: () => void) {}

  /** The first refused row, once there was one. */
  get refused(): RowResult | undefined {
    return this.#first;
  }

  /** Whether `row` failed on its key (then it must not be recorded). */
  check(row: RowResult): boolean {
    if (row.errorCode === undefined || !REFUSED.has(row.errorCode)) return false;
    if (this.#first === undefined) {
      this.#first = row;
      this.onRefused();
    }
    return true;
  }
}

/** Exit 2 (a set-up problem), naming where the key comes from. */
export function keyRefusedError(row: RowResult, context: { modelName: string; runId: string; projectRoot: string; notRun: number | undefined }): ModelCallError {
  const left = context.notRun === undefined ? 'the remaining rows were not run' : `${context.notRun} row${context.notRun === 1 ? '' : 's'} not run`;
  if (row.errorCode === 'MODEL_QUOTA_EXCEEDED') {
    // No wait cures it (no reset is coming): every other row would be refused the same way.
    return new ModelCallError('MODEL_QUOTA_EXCEEDED', `the provider says the account is out of quota: ${row.error ?? 'insufficient_quota'}; stopped with ${left}`, {
      hint: `add credit to the account (or use another key), then continue with --resume ${context.runId}`,
    });
  }
  const provider = context.modelName.split('/')[0] ?? '';
  const files = `${ENV_FILES.slice(0, -1).join(', ')} and ${ENV_FILES.at(-1) ?? ''} in ${context.projectRoot}`;
  const variable = provider === 'openai' ? 'OPENAI_API_KEY' : `the API key of provider "${provider}" (see providers in agentmark.config.ts)`;
  return new ModelCallError('MODEL_AUTH_FAILED', `the model server refused the API key: ${row.error ?? 'not authorised'}; stopped with ${left}`, {
    hint: `check ${variable} (read from the environment, then from ${files}), then continue with --resume ${context.runId}`,
  });
}

