import { readDatasetBatches, type LabelIndex } from '../dataset/index.js';
import { ErrorList, type AgentmarkError } from '../errors/index.js';
import type { RowCheck } from './check-verdicts.js';
import type { JSONSchema7 } from '../prompt/json-schema.js';

/** Problems listed before giving up; the count of the rest is still reported. */
const MAX_LISTED = 20;

/**
 * Reads the whole dataset once before any model call, so a bad line anywhere is an input
 * error (exit 2) up front instead of a run that spends money and then stops halfway.
 * Returns the number of rows. `labels`, when given, sees every row (duplicate names are
 * problems like bad lines); so does `checkRow`, when given, and `onChunk` every byte of the file.
 */
export async function checkDataset(
  path: string,
  inputSchema: JSONSchema7 | undefined,
  signal?: AbortSignal,
  labels?: LabelIndex,
  checkRow?: RowCheck,
  onChunk?: (chunk: Buffer) => void,
): Promise<number> {
  const problems: AgentmarkError[] = [];
  let bad = 0;
  let rows = 0;
  const options = {
    ...(inputSchema === undefined ? {} : { inputSchema }),
    ...(signal === undefined ? {} : { signal }),
    ...(onChunk === undefined ? {} : { onChunk }),
    onError: (error: AgentmarkError) => {
      bad++;
      if (problems.length < MAX_LISTED) problems.push(error);
    },
  };
  for await (const batch of readDatasetBatches(path, options)) {
    rows += batch.length;
    if (labels === undefined && checkRow === undefined) continue;
    for (const row of batch) {
      const duplicate = labels?.add(row);
      if (duplicate) options.onError(duplicate);
      const problem = checkRow?.(row);
      if (problem) options.onError(problem);
    }
  }
  if (bad > 0) {
    const more = bad - problems.length;
    throw new ErrorList(problems, more > 0 ? { hint: `${more} more bad row${more === 1 ? '' : 's'} not listed; \`agentmark validate\` lists them all` } : {});
  }
  return rows;
}
