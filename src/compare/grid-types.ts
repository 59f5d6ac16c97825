import type { ConversationEnd } from '../conversation/types.js';
import type { CompareResult } from './types.js';

/**
 * The results grid of three or more runs over the same rows (`compare A B C`, `--format json`):
 * one row per dataset row common to every run, one cell per run. Plain JSON.
 */
export interface GridResult {
  /** Shape version of this document; bumped when a field changes meaning. */
  version: 1;
  /** The runs in the order given; the first is the base every head is compared with. */
  runs: GridRun[];
  /** Eval names present in any run, in the first run's order then the others' new ones. */
  evals: string[];
  /** Each head against the base, as `compareRuns` gives it (`comparisons[i]` is `runs[i + 1]`). */
  comparisons: CompareResult[];
  /** Dataset rows present in every run. */
  common: number;
  /** Per run (same order as `runs`): rows seen in some other run but not in this one. */
  missing: number[];
  /** The filter and order asked for. */
  filter: { disagree: boolean; failed: boolean; sort: 'dataset' | 'disagreement' };
  /** Common rows the filter kept. */
  matched: number;
  /** The rows shown (at most the limit), in the order asked for. */
  rows: GridRow[];
  /** Matched rows not shown (past the limit). */
  omitted: number;
}

export interface GridRun {
  id: string;
  /** What tells this run apart: its model, its prompt's name, both, or its id. */
  label: string;
  model: string;
  prompt: string;
}

export interface GridRow {
  /** The first run's dataset row index. */
  index: number;
  input: Record<string, unknown>;
  expectedOutput?: unknown;
  /** One per run, in the order of `runs`. */
  cells: GridCell[];
  /** Evals whose verdict (or score, or label) is not the same in every run. */
  evalsDiffering: number;
  /** The runs' outputs are not all the same. */
  outputsDiffer: boolean;
  /** Some run errored on this row or did not pass one of its evals. */
  failed: boolean;
}

export interface GridCell {
  /** The first repeat's output as text (JSON for objects), cut to the grid's output limit. */
  output?: string;
  error?: string;
  /** By eval name: the first repeat's result. */
  evals: Record<string, GridEval>;
  latencyMs?: number;
  costUsd?: number;
  /** A conversation row: `output` is its last assistant turn; the whole transcript is on its row page. */
  conversation?: GridConversation;
}

export interface GridConversation {
  /** The row's index in this cell's run (its row page is `#/runs/<run id>/rows/<row>`). */
  row: number;
  /** The conversation's user turns (as `max_turns` counts them; the transcript has both sides). */
  turns: number;
  endedBy: ConversationEnd;
}

export interface GridEval {
  passed?: boolean;
  score?: number;
  label?: string;
  error?: string;
}
