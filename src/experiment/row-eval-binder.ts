import { locateRowField, rowEvals } from '../dataset/index.js';
import { EvalBindingError, isAgentmarkError } from '../errors/index.js';
import { bindEvalSpecs, ROW_SCORE, type BindContext, type BoundEval } from '../scoring/index.js';
import type { RowCheck } from './check-verdicts.js';
import type { RowEvalSet, WeightedEval } from './row-eval-set.js';

interface Seen {
  name: string;
  options: Record<string, unknown> | undefined;
  line: number;
  index: number;
}

/** What the dataset check gathers of the rows' evals, before any is bound. */
export class RowEvalCollector {
  private readonly seen = new Map<string, Seen>();
  private weighted = false;

  /** Records each row's distinct evals; shape problems were already reported when the row was read. */
  readonly check: RowCheck = (row) => {
    const read = rowEvals(row.metadata);
    if (read === undefined) return undefined;
    if (read.threshold !== undefined || read.specs.some((spec) => spec.weight !== undefined)) this.weighted = true;
    for (const spec of read.specs) {
      const key = specKey(spec.name, spec.options);
      if (!this.seen.has(key)) this.seen.set(key, { name: spec.name, options: spec.options, line: row.line, index: spec.index });
    }
    return undefined;
  };

  get empty(): boolean {
    return this.seen.size === 0 && !this.weighted;
  }

  /**
   * Binds every distinct eval the rows name, as the prompt's are bound: an unknown name or a bad
   * option is an EvalBindingError at the dataset's `file:line:col` (the first row that wrote it).
   */
  async bind(promptEvals: readonly BoundEval[], ctx: BindContext, dataset: { path: string; file: string }): Promise<RowEvalSet> {
    const datasetFile = dataset.file;
    const entries = [...this.seen.entries()];
    const bound = new Map<string, BoundEval>();
    const closers: Array<() => Promise<void>> = [];
    try {
      for (const [key, seen] of entries) {
        const spec = { name: seen.name, location: { file: datasetFile, line: seen.line }, ...(seen.options === undefined ? {} : { options: seen.options }) };
        const result = await bindEvalSpecs([spec], ctx).catch(async (error: unknown) => {
          throw isAgentmarkError(error) && error instanceof EvalBindingError ? await relocate(error, dataset, seen) : error;
        });
        closers.push(result.close);
        const [one] = result.evals;
        if (one !== undefined) bound.set(key, one);
      }
    } catch (error) {
      await Promise.all(closers.map((close) => close()));
      throw error;
    }
    const promptNames = new Set(promptEvals.map((e) => e.name));
    const rowOnly = [...new Set(entries.map(([, seen]) => seen.name))].filter((name) => !promptNames.has(name));
    if (this.weighted && !promptNames.has(ROW_SCORE) && !rowOnly.includes(ROW_SCORE)) rowOnly.push(ROW_SCORE);
    const plain = promptEvals.map((e): WeightedEval => ({ bound: e, weight: 1 }));
    return {
      rowOnly,
      bound: [...bound.values()],
      evalsFor(row) {
        const read = rowEvals(row.metadata);
        if (read === undefined || read.specs.length === 0) return plain;
        const own = new Map<string, WeightedEval>();
        for (const spec of read.specs) {
          const one = bound.get(specKey(spec.name, spec.options));
          if (one !== undefined) own.set(spec.name, { bound: one, weight: spec.weight ?? 1 });
        }
        // A row's eval of a prompt eval's name takes its place on that row (its options, its weight).
        return [...plain.filter((e) => !own.has(e.bound.name)), ...own.values()];
      },
      close: async () => {
        await Promise.all(closers.map((close) => close()));
      },
    };
  }
}

function specKey(name: string, options: Record<string, unknown> | undefined): string {
  return options === undefined ? name : `${name}\u0000${JSON.stringify(options)}`;
}

/** The same error, pointing at the row's `evals[i]` (its options, when they are what is wrong). */
async function relocate(error: EvalBindingError, dataset: { path: string; file: string }, seen: Seen): Promise<EvalBindingError> {
  const pointer = error.code === 'EVAL_INVALID_OPTIONS' && seen.options !== undefined ? `/evals/${seen.index}/options` : `/evals/${seen.index}`;
  const location = await locateRowField(dataset.path, dataset.file, seen.line, pointer);
  return new EvalBindingError(error.code as `EVAL_${string}`, error.message, { location, ...(error.hint === undefined ? {} : { hint: error.hint }) });
}
