import { ModelCallError } from '../errors/index.js';
import type { BatchAnswer } from './batch-answers.js';
import type { BatchJobRecord } from './types.js';

/** Why a request has no answer, from its error line or its job's end. */
export function failureOf(id: string, job: BatchJobRecord | undefined, answer: BatchAnswer | undefined, runId: string): ModelCallError {
  const which = job?.batchId === undefined ? 'its batch job' : `batch job ${job.batchId}`;
  const hint = { hint: `continue with --resume ${runId} to send it again` };
  if (answer !== undefined && !answer.ok) {
    const expired = answer.code === 'batch_expired';
    const cancelled = answer.code === 'batch_cancelled';
    const code = expired ? 'MODEL_BATCH_EXPIRED' : cancelled ? 'MODEL_BATCH_CANCELLED' : 'MODEL_BATCH_ROW_FAILED';
    return new ModelCallError(code, `${which}: ${answer.reason}`, hint);
  }
  if (job === undefined) return new ModelCallError('MODEL_BATCH_NOT_SENT', `${id} was in no batch job`, hint);
  switch (job.status) {
    case 'expired':
      return new ModelCallError('MODEL_BATCH_EXPIRED', `${which} expired (24 h window) before this request ran`, hint);
    case 'cancelled':
      return new ModelCallError('MODEL_BATCH_CANCELLED', `${which} was cancelled before this request ran`, hint);
    case 'failed':
      return new ModelCallError('MODEL_BATCH_JOB_FAILED', `${which} failed${job.failure ? `: ${job.failure}` : ''}`, hint);
    default:
      return new ModelCallError('MODEL_BATCH_MISSING', `${which} ended ${job.status ?? 'unknown'} but its output has no answer for this request (partial output)`, hint);
  }
}

/**
 * The same failure for a judge request. An eval error is one line of text with no place for a
 * hint, so the hint (how to send it again) goes into the message.
 */
export function judgeFailureOf(id: string, job: BatchJobRecord | undefined, answer: BatchAnswer | undefined, runId: string): ModelCallError {
  const failure = failureOf(id, job, answer, runId);
  return new ModelCallError(failure.code as `MODEL_${string}`, `judge ${failure.message}${failure.hint ? ` (${failure.hint})` : ''}`);
}
