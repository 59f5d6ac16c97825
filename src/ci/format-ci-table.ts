import { formatCost } from '../report/format-cost.js';
import { evalLines, exitLine, rowsText, verdictCounts } from './eval-lines.js';
import type { CiReport, CiVerdict } from './types.js';

const MARKS: Record<CiVerdict, string> = {
  regressed: '✘',
  inconclusive: '?',
  'no regression': '✔',
  unchanged: '=',
  new: '+',
  removed: '-',
  'no base': '!',
  unfinished: '…',
  error: '✘',
};

/**
 * `agentmark ci --format table`: a block per prompt (its verdict, rows and cost, then one line
 * per eval, base → head), short lines that read at 80 columns and piped; then the gate messages
 * of the compared prompts and the exit line. The details are in markdown and json.
 */
export function formatCiTable(report: CiReport, width = 80): string {
  const { base, prompts } = report;
  const out: string[] = [];
  out.push(base.commit === undefined ? `agentmark ci: no base (tried ${base.tried.join(', ') || 'nothing: not a git repository'})` : `agentmark ci: base ${base.ref} (${base.commit.slice(0, 12)}) → working tree`, '');
  const pad = Math.max(0, ...prompts.map((p) => p.verdict.length));
  for (const p of prompts) {
    const side = p.head ?? p.base;
    out.push(`${MARKS[p.verdict]} ${p.verdict.padEnd(pad)}  ${p.path}${side ? `  (${rowsText(p)} rows, ${formatCost(side.costUsd ?? 0)})` : ''}`);
    for (const line of evalLines(p)) out.push(`    ${line}`);
    if (p.comparison) out.push(`    ${p.comparison.gate.message}`);
    if (p.comparison && (p.comparison.changedRows.regressed > 0 || p.comparison.changedRows.improved > 0)) {
      out.push(`    rows flipped: ${p.comparison.changedRows.regressed} regressed, ${p.comparison.changedRows.improved} improved`);
    }
    if (p.note !== undefined) out.push(`    ${p.note}`);
  }
  out.push('');
  if (report.costLimit) out.push(`--max-cost ${report.costLimit.maxUsd} USD reached (${formatCost(report.costLimit.spentUsd)} spent): live calls stopped`);
  out.push(`${verdictCounts(prompts) || 'no prompts'}; ${exitLine(report.exitCode, prompts)}`);
  return `${out.flatMap((line) => wrap(line, width)).join('\n')}\n`;
}

/** A line longer than `width` broken at spaces, the rest indented two more than its start. */
function wrap(line: string, width: number): string[] {
  const length = (text: string): number => [...text].length;
  if (length(line) <= width) return [line];
  const lead = /^ */.exec(line)?.[0] ?? '';
  const out: string[] = [];
  let current = lead;
  for (const word of line.trimStart().split(' ')) {
    const empty = current.trim() === '';
    const next = empty ? current + word : `${current} ${word}`;
    if (length(next) > width && !empty) {
      out.push(current);
      current = `${lead}  ${word}`;
    } else current = next;
  }
  out.push(current);
  return out;
}
