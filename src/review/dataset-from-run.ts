import { open, readFile, stat } from 'node:fs/promises';
import { rowIdentity } from '../dataset/index.js';
import type { RowResult } from '../experiment/types.js';
import { storeWriteError, type RunStore, type StoredRun } from '../store/index.js';
import type { Verdict } from '../scoring/agreement/index.js';
import { runLabels } from './run-labels.js';
import type { Label } from './types.js';

export interface FromRunOptions {
  /** Only rows that errored or failed an eval (`eval`, when given). */
  failed?: boolean;
  /** Only rows a person labelled (on `eval`, when given). */
  labelled?: boolean;
  eval?: string;
  /** `output`: a row whose output a reviewer accepted gets it as its expected output. */
  expected?: 'output';
}

export interface FromRunResult {
  written: number;
  /** Rows already in the file (same row identity): not written again. */
  skipped: number;
}

/**
 * Appends a run's rows to a dataset file in our format, so regressions found in review become
 * tests: `input`, `expected_output`, `name`/`tags`, human verdicts as `labels` (the new file is a
 * calibration set), and `metadata.source` naming the run and row. A row is written once per
 * dataset row (its first repeat that qualifies), and never when the file already holds it.
 */
export async function datasetFromRun(run: StoredRun, path: string, options: FromRunOptions, store?: RunStore): Promise<FromRunResult> {
  const present = await identitiesIn(path);
  const labels = await runLabels(run, store);
  const lines: string[] = [];
  let skipped = 0;
  for await (const row of run.rowsInOrder()) {
    const identity = rowIdentity(row);
    if (present.has(identity)) {
      if (row.repeat === 0) skipped++;
      continue;
    }
    const human = labels.labelsFor(row).filter((label) => !label.fromDataset && (options.eval === undefined || label.eval === options.eval));
    if (options.failed && !failed(row, options.eval)) continue;
    if (options.labelled && human.length === 0) continue;
    present.add(identity);
    lines.push(JSON.stringify(datasetLine(run.manifest.id, row, identity, human, options)));
  }
  if (lines.length > 0) {
    try {
      const handle = await open(path, 'a+');
      try {
        const size = (await handle.stat()).size;
        const separator = size > 0 && !(await endsWithNewline(handle, size)) ? '\n' : '';
        await handle.write(`${separator}${lines.join('\n')}\n`);
      } finally {
        await handle.close();
      }
    } catch (error) {
      // No space, a read-only disk: the typed error naming the file (exit 2), not a stack.
      throw storeWriteError(error, path);
    }
  }
  return { written: lines.length, skipped };
}

function failed(row: RowResult, evalName: string | undefined): boolean {
  if (row.error !== undefined) return true;
  const evals = evalName === undefined ? Object.values(row.evals) : [row.evals[evalName]].filter((e) => e !== undefined);
  return evals.some((result) => result.error !== undefined || result.passed === false);
}

function datasetLine(runId: string, row: RowResult, identity: string, human: readonly Label[], options: FromRunOptions): Record<string, unknown> {
  const { name, tags, labels: _datasetLabels, source: _source, ...metadata } = row.metadata;
  const verdicts = verdictsOf(human, row.metadata['labels']);
  let expected = row.expectedOutput;
  if (options.expected === 'output' && row.output !== undefined && human.some((label) => label.value === true)) expected = row.output;
  return {
    ...(name === undefined ? {} : { name }),
    ...(tags === undefined ? {} : { tags }),
    input: row.input,
    ...(expected === undefined ? {} : { expected_output: expected }),
    ...(Object.keys(verdicts).length === 0 ? {} : { labels: verdicts }),
    ...metadata,
    source: { run: runId, index: row.index, repeat: row.repeat, row: identity },
  };
}

/** The row's dataset labels, overridden by the reviewers' (the latest label per eval). */
function verdictsOf(human: readonly Label[], fromDataset: unknown): Record<string, Verdict> {
  const verdicts: Record<string, Verdict> = typeof fromDataset === 'object' && fromDataset !== null ? { ...(fromDataset as Record<string, Verdict>) } : {};
  const latest = [...human].sort((a, b) => a.at.localeCompare(b.at));
  for (const label of latest) verdicts[label.eval] = label.value;
  return verdicts;
}

/**
 * Identities of the rows a dataset file already holds: each line's own identity, and the
 * identity of the run row it was written from (`source.row`), so a row appended once is
 * recognised however it was written.
 */
async function identitiesIn(path: string): Promise<Set<string>> {
  const identities = new Set<string>();
  let text: string;
  try {
    // Only a regular file holds rows: a device (/dev/full, /dev/zero) or a pipe reads for ever.
    if (!(await stat(path)).isFile()) return identities;
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return identities;
    throw error;
  }
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      continue;
    }
    const { input, expected_output: expectedOutput, output: _output, ...metadata } = line;
    if (typeof input === 'object' && input !== null) identities.add(rowIdentity({ input: input as Record<string, unknown>, expectedOutput, metadata }));
    const source = line['source'] as { row?: unknown } | undefined;
    if (typeof source?.row === 'string') identities.add(source.row);
  }
  return identities;
}

async function endsWithNewline(handle: import('node:fs/promises').FileHandle, size: number): Promise<boolean> {
  const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
  return buffer[0] === 0x0a;
}
