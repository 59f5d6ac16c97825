import { relative } from 'node:path';
import type { DatasetRow } from '../dataset/index.js';
import { closestMatch } from '../errors/index.js';
import type { LoadedPrompt } from '../prompt/index.js';

/** Keys listed in a warning at most; a wide dataset's are cut with a count of the rest. */
const LISTED = 12;

/**
 * Props the template reads that no row of the dataset has. Without an `input_schema` listing the
 * props nothing refuses `{props.subjet}`: it renders as an empty string on every row. So the
 * rows' input keys are gathered while the dataset is read anyway (validate, the run's check) and
 * each prop no row has is a warning at its first use, with a did-you-mean from the keys the
 * rows do have. With a schema listing properties, the prompt's own error covers this.
 */
export class MissingProps {
  readonly #keys = new Set<string>();
  #rows = 0;
  readonly #active: boolean;

  constructor(private readonly prompt: Pick<LoadedPrompt, 'propReads' | 'inputSchema'>) {
    const properties = (prompt.inputSchema as { properties?: unknown } | undefined)?.properties;
    this.#active = prompt.propReads.length > 0 && (properties === null || typeof properties !== 'object');
  }

  /** Whether the rows' keys are needed at all (the template reads props, and no schema lists them). */
  get needed(): boolean {
    return this.#active;
  }

  add(row: DatasetRow): void {
    if (!this.#active) return;
    this.#rows++;
    for (const key in row.input) this.#keys.add(key);
  }

  /** One warning a prop no row has, as `file:line:col: message` relative to `root`. */
  warnings(root: string, datasetPath: string): string[] {
    if (!this.#active || this.#rows === 0) return [];
    const keys = [...this.#keys];
    const listed = keys.length === 0 ? 'none' : keys.length > LISTED ? `${keys.slice(0, LISTED).join(', ')} and ${keys.length - LISTED} more` : keys.join(', ');
    const dataset = relative(root, datasetPath);
    return this.prompt.propReads
      .filter((read) => !this.#keys.has(read.name))
      .map((read) => {
        const close = closestMatch(read.name, keys);
        const mean = close === undefined ? '' : `; did you mean "props.${close}"?`;
        return `${relative(root, read.file)}:${read.line}:${read.column}: props.${read.name} is in no row of ${dataset} (${this.#rows} row${this.#rows === 1 ? '' : 's'}): it renders as an empty string${mean} (the rows have: ${listed})`;
      });
  }
}
