import type { BuiltinScorer } from '../types.js';
import { defineScorer } from './define-scorer.js';

export interface MaxMemoryOptions {
  /** Most peak heap growth allowed while the agent runs, in MB. Required. */
  max: number;
}

/**
 * An agent row's peak heap growth ≤ `max` MB (Definable's `memory_threshold_mb`). Prompt rows
 * run no code of the user's and get no verdict. With rows in flight together the figure counts
 * their heap too (the row's `memoryApproximate`): run with `--concurrency 1` for an exact one.
 */
export const maxMemoryMb = defineScorer<MaxMemoryOptions>({
  name: 'max_memory_mb',
  description: "Passes when an agent row's peak heap growth is within max MB; prompt rows get no verdict.",
  options: {
    type: 'object',
    properties: { max: { type: 'number', exclusiveMinimum: 0 } },
    required: ['max'],
    additionalProperties: false,
  },
  create: (options) => (params) => {
    const peak = params.agent?.peakMemoryMb;
    if (peak === undefined) return { skipped: true, reason: params.agent === undefined ? 'not an agent row' : 'no memory figure (a replayed row)' };
    const passed = peak <= options.max;
    return { passed, score: passed ? 1 : 0, reason: `peak heap growth ${peak} MB ${passed ? 'within' : 'exceeds'} max ${options.max} MB` };
  },
});

export const memoryScorers: BuiltinScorer[] = [maxMemoryMb];
