export type {
  BoundEval,
  BuiltinScorer,
  EvalParams,
  EvalResult,
  JudgeFn,
  ScoredEval,
  ScoredRow,
  Scorer,
  ScorerContext,
  ScorerControl,
} from './types.js';
export type { EvalSummary } from './eval-summary.js';
export { bindEvals, bindEvalSpecs, type BindContext, type BindResult, type EvalSpec } from './bind-evals.js';
export { builtinScorers } from './builtins/index.js';
export type { ExactMatchOptions, ContainsOptions, RegexOptions, StartsWithOptions, OneOfOptions } from './builtins/text-match.js';
export type { JsonSchemaOptions, JsonFieldsOptions } from './builtins/json.js';
export type { LevenshteinOptions } from './builtins/similarity.js';
export type { NumericOptions } from './builtins/numeric.js';
export type { ToolCallsOptions } from './builtins/tool-calls.js';
export type { LatencyOptions, TokensOptions, CostOptions } from './builtins/performance.js';
export type { LlmJudgeOptions, AccuracyOptions } from './builtins/llm-judge.js';
export { validateResult } from './validate-result.js';
export { runEval, type RunEvalOptions } from './run-eval.js';
export { wilsonInterval, meanStats, sampleStdDev, spread, type MeanStats, type ScoreRange, type Spread } from './statistics.js';
export { scoreRange, scoreRanges } from './score-range.js';
export { EvalTallies, summarizeEvals, type ScoredEvalSummary } from './summarize-evals.js';
export { FloatList } from './float-list.js';
export { FlakyTracker, findFlakyRows, type FlakyEval, type FlakyRow } from './flaky-rows.js';
export { ROW_SCORE, weightedRowScore } from './row-score.js';
