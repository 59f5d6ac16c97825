import { resumeCommandOf, type RunManifest } from '../store/index.js';
import { formatCost } from './format-cost.js';
import { formatDuration } from './format-duration.js';
import { formatPercent } from './format-percent.js';
import { fitTable, leftOutNote, MIN_CUT, type FitColumn } from './fit-table.js';
import { truncate } from './truncate.js';
import { renderTable } from './render-table.js';
import { shortenList } from './shorten-cells.js';

/** One past run as `agentmark runs --format json` lists it. */
export interface RunListEntry {
  id: string;
  startedAt: string;
  endedAt?: string;
  status: string;
  prompt: string;
  model: string;
  dataset?: string;
  rows?: number;
  errored?: number;
  evals: Array<{ name: string; passRate?: number; meanScore?: number }>;
  git?: { commit: string; dirty: boolean };
  durationMs?: number;
  costUsd?: number;
  /** For a run that did not finish: the command that continues it. */
  resume?: string;
  /** With a team store set: whether the run is in this clone (`local`), the store, or both. */
  where?: 'local' | 'store' | 'both';
  /** A run in both whose store copy has another status (a push killed half-way is `running` there). */
  storeStatus?: string;
}

export function runListEntry(manifest: RunManifest): RunListEntry {
  const summary = manifest.summary;
  const ended = manifest.endedAt === undefined ? undefined : Date.parse(manifest.endedAt) - Date.parse(manifest.startedAt);
  return {
    id: manifest.id,
    startedAt: manifest.startedAt,
    ...(manifest.endedAt === undefined ? {} : { endedAt: manifest.endedAt }),
    status: manifest.status,
    prompt: manifest.prompt?.path ?? '?',
    model: manifest.model,
    ...(manifest.dataset ? { dataset: manifest.dataset.path } : {}),
    ...(summary ? { rows: summary.rows, errored: summary.errored } : {}),
    evals: (summary?.evals ?? []).map((e) => ({
      name: e.name,
      ...(e.passRate === undefined ? {} : { passRate: e.passRate }),
      ...(e.meanScore === undefined ? {} : { meanScore: e.meanScore }),
    })),
    ...(manifest.git ? { git: manifest.git } : {}),
    ...(ended === undefined || !Number.isFinite(ended) ? {} : { durationMs: ended }),
    ...(summary?.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
    ...(manifest.status === 'interrupted' || manifest.status === 'failed' ? { resume: resumeCommandOf(manifest) } : {}),
  };
}

const when = (iso: string): string => iso.replace('T', ' ').slice(0, 19);

function evalCell(entry: RunListEntry): string {
  return entry.evals
    .map((e) => `${e.name} ${e.passRate !== undefined ? formatPercent(e.passRate, 0) : e.meanScore !== undefined ? e.meanScore.toFixed(2) : 'n/a'}`)
    .join(', ');
}

/**
 * How the runs table gives way to a narrow terminal (see fit-table.ts): the dataset and model are
 * cut, the prompt shows its name alone, Started loses its year and seconds, the eval list keeps
 * whole entries (`exact 67%, +2 more`), then Dataset, Commit, Cost,
 * Duration, Started, Model and Prompt are left out in that order. Run, Rows, Evals and Status
 * always show, and so does Where when a team store is set.
 */
const COLUMNS: readonly FitColumn[] = [
  { header: 'Run' },
  // `2026-12-01 22:14:25` → `12-01 22:14`.
  { header: 'Started (UTC)', shrink: (text) => text.slice(5, 16), drop: 5 },
  // `prompts/classify-intent.prompt.mdx` → `classify-intent`, then cut.
  { header: 'Prompt', shrink: (text, width) => truncate(text.replace(/^.*\//, '').replace(/\.prompt\.mdx$/, ''), Math.max(width, MIN_CUT)), drop: 7 },
  { header: 'Model', shrink: 'cut', drop: 6 },
  { header: 'Dataset', shrink: 'cut', drop: 1 },
  { header: 'Rows' },
  { header: 'Evals', shrink: (text, width, _row, lastResort) => shortenList(text, width, lastResort) },
  { header: 'Status' },
  { header: 'Commit', drop: 2 },
  { header: 'Duration', drop: 4 },
  { header: 'Cost', drop: 3 },
];
/** With a team store set, after Status: short words (local, store, both), never left out. */
const WHERE: FitColumn = { header: 'Where' };
// `both*`: the store's copy has another status, said in a note under the table.
const whereCell = (e: RunListEntry): string => `${e.where ?? ''}${e.storeStatus === undefined ? '' : '*'}`;
const storeNote = (e: RunListEntry): string =>
  `* ${e.id}: the store's copy is ${e.storeStatus}${e.status === 'running' || e.status === 'interrupted' ? '' : '; `runs push` completes it'}\n`;

/**
 * The `agentmark runs` table: newest first. `*` after a commit: the tree had uncommitted changes.
 * Fitted to `width` columns when given.
 */
export function formatRunList(entries: readonly RunListEntry[], width?: number): string {
  if (entries.length === 0) return 'No runs yet.\n';
  const placed = entries.some((e) => e.where !== undefined);
  const columns = placed ? [...COLUMNS.slice(0, 8), WHERE, ...COLUMNS.slice(8)] : COLUMNS;
  const headers = columns.map((column) => column.header);
  const rows = entries.map((e) => [
    e.id,
    when(e.startedAt),
    e.prompt,
    e.model,
    e.dataset ?? '',
    e.rows === undefined ? '' : `${e.rows}${e.errored ? ` (${e.errored} errored)` : ''}`,
    evalCell(e),
    e.status,
    ...(placed ? [whereCell(e)] : []),
    e.git ? `${e.git.commit.slice(0, 7)}${e.git.dirty ? '*' : ''}` : '',
    e.durationMs === undefined ? '' : formatDuration(e.durationMs),
    formatCost(e.costUsd),
  ]);
  const resumable = entries.filter((e) => e.status === 'interrupted' && e.resume !== undefined);
  const notes = resumable.map((e) => `${e.id} was interrupted; continue it with: ${e.resume}\n`).join('') + entries.filter((e) => e.storeStatus !== undefined).map(storeNote).join('');
  const fitted = width === undefined ? undefined : fitTable(columns, rows, width, { narrowest: true });
  const left = leftOutNote(fitted, width, '--format json').map((line) => `${line}\n`).join('');
  return `${renderTable(fitted?.headers ?? headers, fitted?.rows ?? rows)}\n${left}${notes === '' ? '' : `\n${notes}`}`;
}
