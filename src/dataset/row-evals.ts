/** One eval a dataset row adds to the prompt's evals, as written in the row's `evals`. */
export interface RowEvalSpec {
  name: string;
  /** Options of the eval's built-in for this row, over `scores.<name>.options`. */
  options?: Record<string, unknown>;
  /** Its share of the row's weighted score (`threshold`). @default 1 */
  weight?: number;
  /** Its place in the row's `evals` (for the error's column). */
  index: number;
}

/** A row's own evals and the threshold of its weighted score. */
export interface RowEvals {
  specs: RowEvalSpec[];
  /** The minimum weighted mean of the row's normalised scores (0..1) for `row_score` to pass. */
  threshold?: number;
}

/** Where in the row a problem is, as a JSON Pointer (for its column). */
export type RowEvalsProblem = { problem: string; pointer: string; at?: 'key' };

const OPTION_KEYS = new Set(['name', 'options', 'weight']);

/**
 * A row's `evals` (`[name | { name, options, weight }]`) and `threshold`, checked for shape when
 * the row is read. Whether each name binds and its options fit is checked when a run starts,
 * against the scorers (see experiment/row-eval-binder.ts). Like `labels`, both stay in the row's
 * metadata.
 */
export function readRowEvals(metadata: Record<string, unknown>): RowEvals | RowEvalsProblem | undefined {
  const { evals, threshold } = metadata;
  if (evals === undefined && threshold === undefined) return undefined;
  const specs: RowEvalSpec[] = [];
  if (evals !== undefined) {
    if (!Array.isArray(evals)) return { problem: `"evals" must be a list of eval names or { name, options, weight } (got ${show(evals)})`, pointer: '/evals' };
    for (const [index, entry] of evals.entries()) {
      const spec = readSpec(entry, index);
      if ('problem' in spec) return spec;
      specs.push(spec);
    }
  }
  if (threshold === undefined) return { specs };
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    return { problem: `"threshold" must be a number from 0 to 1, the minimum weighted score of the row's evals (got ${show(threshold)})`, pointer: '/threshold' };
  }
  return { specs, threshold };
}

function readSpec(entry: unknown, index: number): RowEvalSpec | RowEvalsProblem {
  const pointer = `/evals/${index}`;
  if (typeof entry === 'string') {
    return entry.length > 0 ? { name: entry, index } : { problem: `"evals[${index}]" is an empty name`, pointer };
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { problem: `"evals[${index}]" must be an eval name or { name, options, weight } (got ${show(entry)})`, pointer };
  }
  const record = entry as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !OPTION_KEYS.has(key));
  if (unknown !== undefined) return { problem: `"evals[${index}]" has an unknown key "${unknown}" (known: name, options, weight)`, pointer: `${pointer}/${unknown}`, at: 'key' };
  const { name, options, weight } = record;
  if (typeof name !== 'string' || name.length === 0) return { problem: `"evals[${index}].name" must be an eval name (got ${show(name)})`, pointer: name === undefined ? pointer : `${pointer}/name` };
  const spec: RowEvalSpec = { name, index };
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      return { problem: `"evals[${index}].options" must be an object of the scorer's options (got ${show(options)})`, pointer: `${pointer}/options` };
    }
    spec.options = options as Record<string, unknown>;
  }
  if (weight !== undefined) {
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      return { problem: `"evals[${index}].weight" must be a number of at least 0 (got ${show(weight)})`, pointer: `${pointer}/weight` };
    }
    spec.weight = weight;
  }
  return spec;
}

/** The row evals of a row already checked when it was read. */
export function rowEvals(metadata: Record<string, unknown>): RowEvals | undefined {
  const read = readRowEvals(metadata);
  return read === undefined || 'problem' in read ? undefined : read;
}

function show(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 60);
}
