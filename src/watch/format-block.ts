import { sep } from 'node:path';
import { formatDuration } from '../report/format-duration.js';
import { formatPercent } from '../report/format-percent.js';
import { formatValue } from '../report/format-value.js';
import { truncate } from '../report/truncate.js';
import type { EvalLine, RunReport } from './run-report.js';

export interface BlockOptions {
  /** Cut inputs, outputs and messages to about this many characters. */
  width: number;
  /** Paths in row errors are shown relative to this, as in the CLI's own messages. */
  cwd: string;
}

/**
 * Every block starts with `── <prompt> · ` so a reader (or a test, or the benchmark) can find
 * where each rerun's output begins.
 */
export function blockMarker(label: string, what: string): string {
  return `── ${label} · ${what}`;
}

const MAX_FLIPS_SHOWN = 10;

/** A finished rerun: eval numbers with ▲/▼, flipped rows, errored rows, cache use, run id. */
export function formatRunBlock(label: string, report: RunReport, options: BlockOptions): string {
  const { width } = options;
  const clean = (message: string): string => relativePaths(message, options.cwd);
  const lines = [blockMarker(label, `run ${report.runId}`)];
  const rows = `${report.rows} row${report.rows === 1 ? '' : 's'}`;
  // ▲/▼ of a partial rerun compare these rows with their own previous results: say so.
  const scope = report.onlyFailed === undefined ? rows : `${rows} (failed rows only; ▲/▼ vs the same rows before)`;
  const head = [report.model, scope, `${report.cached} cached`, `${report.errors.length} errored`, formatDuration(report.durationMs)];
  lines.push(`  ${head.filter((part) => part !== undefined).join(' · ')}`);
  const nameWidth = Math.max(0, ...report.evals.map((line) => line.name.length));
  for (const line of report.evals) lines.push(`  ${line.name.padEnd(nameWidth)}  ${formatEvalNumbers(line)}`);
  if (report.evals.length === 0) lines.push('  no evals');
  if (report.flips.length > 0) {
    lines.push(`  flipped: ${report.flips.length}`);
    // A broken prompt can flip every row; the first ones tell the story, the count says the rest.
    const shown = report.flips.slice(0, MAX_FLIPS_SHOWN);
    for (const flip of shown) {
      const arrow = flip.from === 'pass' ? 'pass→fail' : 'fail→pass';
      const output = flip.error === undefined ? `output ${oneLine(flip.output, width)}` : `error ${oneLine(clean(flip.error), width)}`;
      lines.push(`    ${rowName(flip.index, flip.repeat)} ${arrow}  input ${oneLine(flip.input, width)}  ${output}`);
    }
    if (report.flips.length > shown.length) lines.push(`    … and ${report.flips.length - shown.length} more`);
  }
  if (report.errors.length > 0) {
    lines.push(`  errors: ${report.errors.length}`);
    // A template error fails every row the same way: say it once, with the rows it hit.
    const grouped = new Map<string, string[]>();
    for (const error of report.errors) {
      const message = clean(error.message);
      grouped.set(message, [...(grouped.get(message) ?? []), rowName(error.index, error.repeat)]);
    }
    for (const [message, rows] of grouped) {
      const which = rows.length > 3 ? `${rows.slice(0, 3).join(', ')} and ${rows.length - 3} more` : rows.join(', ');
      lines.push(`    ${which}: ${oneLine(message, width * 2)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A file that no longer loads, and what is still shown from before. */
export function formatErrorBlock(label: string, message: string, lastGood: RunReport | undefined): string {
  const lines = [blockMarker(label, 'error'), ...message.split('\n').map((line) => `  ${line}`)];
  if (lastGood) {
    const evals = lastGood.evals.map((line) => `${line.name} ${formatEvalNumbers({ name: line.name, ...numbersOnly(line) })}`);
    lines.push(`  last good results (run ${lastGood.runId}) still stand${evals.length > 0 ? `: ${evals.join(' · ')}` : ''}`);
  } else {
    lines.push('  no results yet; fix the file to run it');
  }
  return `${lines.join('\n')}\n`;
}

/** agentmark.json or the config no longer loads: nothing can run until it does. */
export function formatSharedErrorBlock(label: string, message: string): string {
  const lines = [blockMarker(label, 'error'), ...message.split('\n').map((line) => `  ${line}`)];
  lines.push('  no experiment reruns until this file loads again; the last results still stand');
  return `${lines.join('\n')}\n`;
}

export function formatEvalNumbers(line: EvalLine): string {
  const parts: string[] = [];
  // A pass rate's change is in percentage points: 50% → 40% is `▼ 10.0 pts`, not `-10.0%` (which reads as a relative drop).
  if (line.passRate !== undefined) parts.push(`pass ${formatPercent(line.passRate)}${delta(line.passRateDelta, (d) => `${(d * 100).toFixed(1)} pts`, false)}`);
  if (line.meanScore !== undefined) parts.push(`mean ${line.meanScore.toFixed(3)}${delta(line.meanScoreDelta, (d) => d.toFixed(3))}`);
  return parts.length > 0 ? parts.join('   ') : 'no scores';
}

/** `▲ 5.0 pts` (unsigned) / `▼ -0.120`; nothing when there is no previous run or no change worth showing. */
function delta(value: number | undefined, format: (abs: number) => string, signed = true): string {
  if (value === undefined || Math.abs(value) < 1e-9) return '';
  const [up, down] = signed ? ['+', '-'] : ['', ''];
  return value > 0 ? ` ▲ ${up}${format(value)}` : ` ▼ ${down}${format(-value)}`;
}

function numbersOnly(line: EvalLine): Pick<EvalLine, 'passRate' | 'meanScore'> {
  return {
    ...(line.passRate === undefined ? {} : { passRate: line.passRate }),
    ...(line.meanScore === undefined ? {} : { meanScore: line.meanScore }),
  };
}

function rowName(index: number, repeat: number): string {
  return repeat === 0 ? `row ${index}` : `row ${index} (repeat ${repeat})`;
}

function relativePaths(message: string, cwd: string): string {
  return message.split(cwd.endsWith(sep) ? cwd : `${cwd}${sep}`).join('');
}

function oneLine(value: unknown, width: number): string {
  return truncate(formatValue(value).replace(/\s+/g, ' '), width);
}
