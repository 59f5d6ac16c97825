import { resumeCommandOf, type RunManifest } from '../store/index.js';
import { formatCost } from './format-cost.js';
import { formatDuration } from './format-duration.js';
import { formatPercent } from './format-percent.js';
import { renderTable } from './render-table.js';

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

/** The `agentmark runs` table: newest first. `*` after a commit: the tree had uncommitted changes. */
export function formatRunList(entries: readonly RunListEntry[]): string {
  if (entries.length === 0) return 'No runs yet.\n';
  const headers = ['Run', 'Started (UTC)', 'Prompt', 'Model', 'Dataset', 'Rows (run/errored)', 'Evals', 'Status', 'Commit', 'Duration', 'Cost'];
  const rows = entries.map((e) => [
    e.id,
    when(e.startedAt),
    e.prompt,
    e.model,
    e.dataset ?? '',
    e.rows === undefined ? '' : `${e.rows}/${e.errored ?? 0}`,
    evalCell(e),
    e.status,
    e.git ? `${e.git.commit.slice(0, 7)}${e.git.dirty ? '*' : ''}` : '',
    e.durationMs === undefined ? '' : formatDuration(e.durationMs),
    formatCost(e.costUsd),
  ]);
  const resumable = entries.filter((e) => e.status === 'interrupted' && e.resume !== undefined);
  const notes = resumable.map((e) => `${e.id} was interrupted; continue it with: ${e.resume}\n`).join('');
  return `${renderTable(headers, rows)}\n${notes === '' ? '' : `\n${notes}`}`;
}
