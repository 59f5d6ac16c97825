import type { Attributes } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_EVALUATION_EXPLANATION,
  ATTR_GEN_AI_EVALUATION_NAME,
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  EVENT_GEN_AI_EVALUATION_RESULT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { ScoredEval } from '../scoring/types.js';

export const EVALUATION_EVENT = EVENT_GEN_AI_EVALUATION_RESULT;

/**
 * One eval's result as the attributes of a `gen_ai.evaluation.result` event. The score value
 * is the normalised score in [0, 1]; the raw score and the score schema's name (an eval is bound
 * to `scores.<name>` of agentmark.json) go in `agentmark.evaluation.*`. The reason and a
 * scorer's error message are row content (`exact_match` quotes the output and the expected
 * output, a scorer may quote the input): only with `--otel-content`.
 */
export function evaluationEvent(name: string, result: ScoredEval, content: boolean): Attributes {
  const label = result.label ?? (result.passed === undefined ? undefined : result.passed ? 'pass' : 'fail');
  // By assignment, in the same key order: one event per eval per row, on the export's hot path.
  const out: Attributes = { [ATTR_GEN_AI_EVALUATION_NAME]: name };
  if (result.normalized !== undefined) out[ATTR_GEN_AI_EVALUATION_SCORE_VALUE] = result.normalized;
  if (label !== undefined) out[ATTR_GEN_AI_EVALUATION_SCORE_LABEL] = label;
  if (result.reason !== undefined && content) out[ATTR_GEN_AI_EVALUATION_EXPLANATION] = result.reason;
  if (result.error !== undefined) {
    out[ATTR_ERROR_TYPE] = result.errorCode ?? 'eval_error';
    if (content) out['agentmark.evaluation.error'] = result.error;
  }
  if (result.score !== undefined) out['agentmark.evaluation.score.raw'] = result.score;
  if (result.passed !== undefined) out['agentmark.evaluation.passed'] = result.passed;
  if (!result.untyped) out['agentmark.evaluation.schema'] = name;
  if (result.skipped) out['agentmark.evaluation.skipped'] = true;
  return out;
}
