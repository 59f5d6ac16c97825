import type { RowEvalSet } from './row-eval-set.js';
import type { AgentRunner } from '../agent/index.js';
import type { LoadedPrompt } from '../prompt/index.js';
import type { BoundEval } from '../scoring/index.js';
import type { ConversationSettings } from '../conversation/index.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { RunStatus } from './events.js';
import type { KeyRefusal } from './key-refusal.js';
import type { ModelCaller } from './model-caller.js';
import type { OpenedExperiment } from './open-run.js';
import type { RunExperimentOptions } from './options.js';
import type { RowPlan } from './plan-rows.js';
import type { RunSummary } from './types.js';

export interface ExperimentOutcome {
  runId: string;
  runDir: string;
  status: RunStatus;
  summary: RunSummary;
  /** Indexes of rows that errored or failed an eval (watch mode reruns these on `f`). */
  failedIndexes: Set<number>;
}

/** What the runner has once the run's folder is open: everything the row loop and the run's end need. */
export interface OpenedRunContext {
  options: RunExperimentOptions;
  prompt: LoadedPrompt;
  caller: ModelCaller;
  /** The config agent that runs the rows, if any. */
  runner: AgentRunner | undefined;
  evalNames: string[];
  evals: BoundEval[];
  /** Conversation rows: the simulator and the turn evals (their names end `evalNames`). */
  conversation?: { settings: ConversationSettings | undefined; turnEvals: BoundEval[] };
  /** The evals dataset rows add, when any row has `evals` or `threshold`. */
  rowEvals?: RowEvalSet;
  breaker: CircuitBreaker;
  refusal: KeyRefusal;
  /** Aborted when the breaker opens or the key is refused. */
  halt: AbortSignal;
  datasetPath: string;
  plan: RowPlan;
  opened: OpenedExperiment;
}
