import type { EvalSummary, RunSummary } from '../experiment/types.js';
import type { LatencySummary } from '../experiment/latency-stats.js';
import { agreementSummaryLines } from './format-agreement.js';
import { formatCost } from './format-cost.js';
import { formatDuration } from './format-duration.js';
import { judgeLine, simulatorLine } from './format-judge.js';
import { formatMean } from './format-mean.js';
import { formatPercent } from './format-percent.js';
import { plainPalette, type Palette } from './palette.js';
import type { RunInfo } from './types.js';

const count = (n: number): string => n.toLocaleString('en-US');
const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
const interval = (ci: [number, number] | undefined): string => (ci ? ` (95% CI ${formatPercent(ci[0])}–${formatPercent(ci[1])})` : '');

function evalParts(summary: EvalSummary): string[] {
  const parts: string[] = [];
  if (summary.verdictCount > 0) {
    let pass = `pass ${formatPercent(summary.passRate)} (${count(summary.passedCount)}/${count(summary.verdictCount)}`;
    const ci = summary.passRateCi95;
    if (ci) pass += `, 95% CI ${formatPercent(ci[0])}–${formatPercent(ci[1])}`;
    parts.push(`${pass})`);
  }
  const k = summary.repeats;
  if (k !== undefined && summary.passHatK !== undefined && summary.passAtK !== undefined) {
    parts.push(`pass^${k} ${formatPercent(summary.passHatK)}${interval(summary.passHatKCi95)}`, `pass@${k} ${formatPercent(summary.passAtK)}${interval(summary.passAtKCi95)}`);
  }
  // "raw": the score as the scorer gave it, on its own scale, not the normalised [0, 1] one.
  const mean = formatMean(summary);
  if (mean !== undefined) parts.push(`raw mean ${mean}`);
  if (summary.count === 0) parts.push('no results');
  if (summary.skipped) parts.push(`${count(summary.skipped)} skipped`);
  parts.push(plural(summary.errored, 'error'));
  return parts;
}

/** One eval's line; past `width`, the parts go on under the first, aligned after the name. */
function evalLines(summary: EvalSummary, nameWidth: number, width: number | undefined, palette: Palette): string[] {
  const head = `    ${summary.name.padEnd(nameWidth)}  `;
  const lines: string[] = [];
  let line = head;
  const parts = evalParts(summary);
  for (const [i, part] of parts.entries()) {
    const text = i === 0 ? part : `, ${part}`;
    // A line that goes on under itself ends in a comma: room for it, unless this part is the last.
    const comma = i < parts.length - 1 ? 1 : 0;
    if (width !== undefined && line !== head && line.length + text.length + comma > width) {
      lines.push(`${line},`);
      line = ' '.repeat(head.length) + part;
    } else {
      line += text;
    }
  }
  // The error count is always the last part: coloured after measuring, when there are any.
  const errors = plural(summary.errored, 'error');
  if (summary.errored > 0 && line.endsWith(errors)) line = line.slice(0, -errors.length) + palette.error(errors);
  return [...lines, line];
}

export interface SummaryOptions {
  /** Lines longer than this go on under themselves (an eval's parts, the run folder). @default no limit */
  width?: number;
  /** @default no colour */
  palette?: Palette;
}

/** The SUMMARY block printed after the table, as lines. */
export function formatSummary(summary: RunSummary, info: RunInfo, options: SummaryOptions = {}): string[] {
  const { width, palette = plainPalette } = options;
  const lines = ['SUMMARY'];
  lines.push(
    `  Rows:     ${count(summary.rows)} run, ${count(summary.errored)} errored, ${count(summary.cached)} cached, ` +
      `${count(summary.pregenerated)} pre-generated`,
  );
  if (summary.evals.length > 0) {
    lines.push('  Evals:');
    const nameWidth = Math.max(...summary.evals.map((e) => e.name.length));
    for (const evalSummary of summary.evals) lines.push(...evalLines(evalSummary, nameWidth, width, palette));
  }
  const { p50, p95 } = summary.latencyMs;
  lines.push(
    p50 === undefined || p95 === undefined
      ? '  Latency:  n/a (no live calls)'
      : `  Latency:  p50 ${formatDuration(p50)}, p95 ${formatDuration(p95)} (live calls only)`,
  );
  lines.push(...latencyDetail(summary.latencyMs));
  if (summary.rateLimit) {
    const { refused, waitedMs } = summary.rateLimit;
    lines.push(`  Rate:     ${plural(refused, 'request')} refused (429) and waited out, ${formatDuration(waitedMs)} waiting for the rate limit`);
  }
  const parts = ['main', ...(summary.judge === undefined ? [] : ['judge']), ...(summary.simulator === undefined ? [] : ['simulator'])];
  const both = parts.length === 1 ? '' : ` (${parts.slice(0, -1).join(', ')} and ${parts.at(-1)} calls)`;
  lines.push(`  Tokens:   ${count(summary.usage.inputTokens)} in / ${count(summary.usage.outputTokens)} out${both}`);
  lines.push(`  Cost:     ${formatCost(summary.costUsd)}${both}`);
  if (summary.judge) lines.push(`  Judge:    ${judgeLine(summary.judge)}`);
  if (summary.simulator) lines.push(`  Simulator: ${simulatorLine(summary.simulator)}`);
  if (summary.agentMemoryMb) {
    const { p95, max, approximate } = summary.agentMemoryMb;
    lines.push(`  Memory:   agent rows' peak heap growth p95 ${p95} MB, max ${max} MB${approximate ? ' (approximate)' : ''}`);
  }
  if (summary.flaky.length > 0) {
    const flaky = summary.flaky.map((row) => `#${row.index} (${row.evals.join(', ')})`).join(', ');
    lines.push(`  Flaky:    ${plural(summary.flaky.length, 'row')}: ${flaky}`);
  }
  if (summary.agreement) lines.push(...agreementSummaryLines(summary.agreement));
  if (summary.gates.length > 0) {
    lines.push('  Gates:');
    for (const gate of summary.gates) lines.push(`    ${gate.passed ? palette.pass('✔') : palette.fail('✘')} ${gate.name}: ${gate.message}`);
  }
  // The verdict, what the exit code says: the one line to find at a glance.
  lines.push(`  Result:   ${summary.passed ? palette.bold(palette.pass('PASSED')) : palette.bold(palette.fail(summary.outcome?.toUpperCase() ?? 'FAILED'))}`);
  const run = `  Run:      ${info.runId} (${info.runDir})`;
  if (width !== undefined && run.length > width) lines.push(`  Run:      ${info.runId}`, `            (${info.runDir})`);
  else lines.push(run);
  return lines;
}

/** The rest of the latency statistics, under the p50/p95 line; none for a summary without them. */
function latencyDetail(latency: LatencySummary): string[] {
  const { count: calls, mean, std, min, max, perRow } = latency;
  if (calls === undefined || mean === undefined || min === undefined || max === undefined) return [];
  const spread = std === undefined ? '' : ` ± ${formatDuration(std)} std`;
  const lines = [`            mean ${formatDuration(mean)}${spread}, min ${formatDuration(min)}, max ${formatDuration(max)}, ${plural(calls, 'call')}`];
  if (perRow) {
    const { widest } = perRow;
    lines.push(
      `            across repeats: std ${formatDuration(perRow.meanStd)} per row on average (${plural(perRow.rows, 'row')}), ` +
        `widest #${widest.index} (mean ${formatDuration(widest.mean)}, std ${formatDuration(widest.std)})`,
    );
  }
  return lines;
}
