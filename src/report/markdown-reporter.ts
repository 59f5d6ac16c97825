import { rowLabel } from './row-label.js';
import type { RowResult, RunSummary } from '../experiment/types.js';
import { formatCompareMarkdown } from './compare/format-compare-markdown.js';
import { formatCost } from './format-cost.js';
import { formatDuration } from './format-duration.js';
import { judgeLine } from './format-judge.js';
import { formatEvalCell } from './format-eval-cell.js';
import { formatMean } from './format-mean.js';
import { formatPercent } from './format-percent.js';
import { formatValue } from './format-value.js';
import { truncate } from './truncate.js';
import type { OutputStream, Reporter, ReporterOptions, RunInfo } from './types.js';

const cell = (text: string): string => text.replace(/\r\n|[\r\n]/g, ' ').replace(/\|/g, '\\|');
/** Rows that did not pass, listed at most. */
const LISTED = 20;

function failed(row: RowResult): boolean {
  return row.error !== undefined || Object.values(row.evals).some((e) => e.error !== undefined || e.passed === false);
}

/**
 * A run as markdown, for a pull-request comment or `$GITHUB_STEP_SUMMARY`: the summary per eval,
 * the gates, and the first rows that did not pass (read back at the end, never held).
 */
export function createMarkdownReporter(out: OutputStream, options: ReporterOptions = {}): Reporter {
  const max = options.truncate ?? 200;
  return {
    async onRunEnd(summary: RunSummary, info: RunInfo, rows) {
      const lines = [`### ${summary.passed ? '✅' : '❌'} ${cell(info.promptPath)} · ${cell(info.model)}`, ''];
      const unfinished = summary.outcome === undefined ? '' : ` **${summary.outcome.toUpperCase()}**: the run did not finish.`;
      lines.push(`${summary.rows} rows run, ${summary.errored} errored, ${summary.cached} cached. Run \`${info.runId}\`.${unfinished}`, '');
      if (summary.evals.length > 0) {
        const repeats = summary.evals.some((e) => e.repeats !== undefined);
        const range = (ci: [number, number] | undefined): string => (ci ? `${formatPercent(ci[0])}–${formatPercent(ci[1])}` : '');
        const rate = (value: number | undefined, ci: [number, number] | undefined): string => (value === undefined ? 'n/a' : `${formatPercent(value)} (${range(ci)})`);
        lines.push(`| Eval | Pass rate | 95% CI | Raw mean | Errors |${repeats ? ' pass^k | pass@k |' : ''}`, `|---|---|---|---|---|${repeats ? '---|---|' : ''}`);
        for (const e of summary.evals) {
          const mean = formatMean(e) ?? '';
          const k = repeats ? ` ${rate(e.passHatK, e.passHatKCi95)} | ${rate(e.passAtK, e.passAtKCi95)} |` : '';
          lines.push(`| ${cell(e.name)} | ${e.verdictCount > 0 ? `${formatPercent(e.passRate)} (${e.passedCount}/${e.verdictCount})` : 'n/a'} | ${range(e.passRateCi95)} | ${mean} | ${e.errored} |${k}`);
        }
        if (repeats) lines.push('', `<sub>With repeats the row is the unit: the pass rate's interval is row-clustered; pass^k: rows that passed in all k repeats, pass@k: in at least one.</sub>`);
        lines.push('');
      }
      const { p50, p95 } = summary.latencyMs;
      lines.push(`Latency ${p50 === undefined ? 'n/a' : `p50 ${formatDuration(p50)}, p95 ${formatDuration(p95 ?? NaN)}`} (live calls) · tokens ${summary.usage.inputTokens} in / ${summary.usage.outputTokens} out · cost ${formatCost(summary.costUsd)}${summary.judge ? ` (main and judge calls; judge: ${judgeLine(summary.judge)})` : ''}`, '');
      for (const gate of summary.gates) lines.push(`- ${gate.passed ? '✔' : '✘'} ${cell(gate.name)}: ${cell(gate.message)}`);
      const failing: RowResult[] = [];
      let count = 0;
      for await (const row of rows()) {
        if (!failed(row)) continue;
        count++;
        if (failing.length < LISTED) failing.push(row);
      }
      if (count > 0) {
        lines.push('', `<details><summary>${count} row${count === 1 ? '' : 's'} did not pass</summary>`, '', '| # | Input | Output | Evals |', '|---|---|---|---|');
        for (const row of failing) {
          const output = row.error !== undefined ? `${row.timedOut ? 'TIMED OUT' : 'ERROR'}: ${row.error}` : formatValue(row.output);
          const evals = Object.entries(row.evals).filter(([, e]) => !e.absent).map(([name, e]) => `${name}: ${formatEvalCell(e)}`).join('; ');
          lines.push(`| ${cell(rowLabel(row, false))} | ${cell(truncate(formatValue(row.input), max))} | ${cell(truncate(output, max))} | ${cell(truncate(evals, max))} |`);
        }
        if (count > failing.length) lines.push('', `… and ${count - failing.length} more.`);
        lines.push('', '</details>');
      }
      if (info.comparison) lines.push('', formatCompareMarkdown(info.comparison).trimEnd());
      out.write(`${lines.join('\n')}\n`);
    },
  };
}
