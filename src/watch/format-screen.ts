import { blockMarker, formatErrorBlock, formatRunBlock, formatSharedErrorBlock, type BlockOptions } from './format-block.js';
import type { RunReport } from './run-report.js';

export const KEY_HELP = 'r rerun all · f rerun failed · q quit';

export interface ExperimentView {
  label: string;
  /** The file no longer loads: shown instead of the last run's block (it names the last good results). */
  error?: string;
  last?: RunReport;
  running: boolean;
}

export interface ScreenState {
  /** `watching N files for M experiments`, or what the session is doing before that. */
  status: string;
  /** agentmark.json or the config does not load. */
  shared?: { label: string; message: string };
  experiments: readonly ExperimentView[];
  block: BlockOptions;
}

/** The whole session on one terminal screen: every experiment's latest state, sorted by path. */
export function formatScreen(state: ScreenState): string {
  const parts = [`agentmark watch · ${state.status} — ${KEY_HELP}\n`];
  if (state.shared) parts.push(formatSharedErrorBlock(state.shared.label, state.shared.message));
  for (const view of [...state.experiments].sort((a, b) => a.label.localeCompare(b.label))) {
    // One block per prompt: a broken one's error block already names its last good results.
    if (view.error) parts.push(formatErrorBlock(view.label, view.error, view.last));
    else if (view.last) parts.push(formatRunBlock(view.label, view.last, state.block));
    if (!view.error && !view.last) parts.push(`${blockMarker(view.label, 'waiting for its first run')}\n`);
    if (view.running) parts.push('  running…\n');
  }
  return parts.join('\n');
}
