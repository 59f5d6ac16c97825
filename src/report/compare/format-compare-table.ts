import { promptDiffLines } from './format-prompt-diff.js';
import type { ChangedRow, CompareResult, EvalSide, RunDescription, RunPerformance } from '../../compare/index.js';
import { repeatsText } from './repeats-text.js';
import { fitProse } from '../fit-prose.js';
import { formatCost } from '../format-cost.js';
import { formatDuration } from '../format-duration.js';
import { formatValue } from '../format-value.js';
import { truncate } from '../truncate.js';
import { evalsNote, renderEvalTable } from './eval-cells.js';
import { wordDiff } from './word-diff.js';
import { wrapWords } from '../wrap-words.js';
import { turnsChange } from '../conversation-note.js';

export interface CompareTableOptions {
  /** Longest input/output shown for a changed row; 0 keeps them whole. @default 200 */
  truncate?: number;
  /** Terminal width to fit the tables to; undefined: no fitting. */
  width?: number;
}

const oneLine = (text: string, max: number): string => truncate(text.replace(/\r\n|[\r\n\t]/g, ' '), max);

function runLine(label: string, run: RunDescription): string {
  const commit = run.git ? ` · commit ${run.git.commit.slice(0, 7)}${run.git.dirty ? '*' : ''}` : '';
  return `  ${label}: ${run.id} · ${run.prompt.path} · ${run.model}${commit} · ${run.rows} rows${run.repeat > 1 ? ` × ${run.repeat} repeats` : ''}`;
}

function performanceLines(base: RunPerformance, head: RunPerformance): string[] {
  const latency = (p: RunPerformance): string =>
    p.latencyP50Ms === undefined ? 'n/a' : `p50 ${formatDuration(p.latencyP50Ms)}, p95 ${formatDuration(p.latencyP95Ms ?? NaN)}`;
  return [
    'Performance (live calls only; base → head):',
    `  Latency: ${latency(base)} → ${latency(head)}`,
    `  Tokens:  ${base.inputTokens.toLocaleString('en-US')} in / ${base.outputTokens.toLocaleString('en-US')} out → ${head.inputTokens.toLocaleString('en-US')} in / ${head.outputTokens.toLocaleString('en-US')} out`,
    `  Cost:    ${formatCost(base.costUsd)} → ${formatCost(head.costUsd)}`,
  ];
}

function verdictText(side: EvalSide | undefined): string {
  if (!side) return '—';
  if (side.repeats) return repeatsText(side.repeats);
  if (side.error !== undefined) return 'ERROR';
  if (side.passed !== undefined) return side.passed ? 'PASS' : 'FAIL';
  return side.score === undefined ? '—' : String(side.score);
}

function changedRowLines(row: ChangedRow, max: number): string[] {
  const mark = row.change === 'regressed' ? '▼ regressed' : '▲ improved';
  const index = row.baseIndex === row.headIndex ? `#${row.headIndex}` : `#${row.baseIndex} → #${row.headIndex}`;
  const lines = [`${mark} ${index}  input: ${oneLine(formatValue(row.input), max)}`];
  const base = row.baseError !== undefined ? `ERROR: ${row.baseError}` : formatValue(row.baseOutput);
  const head = row.headError !== undefined ? `ERROR: ${row.headError}` : formatValue(row.headOutput);
  const diff = wordDiff(base, head);
  if (diff !== undefined && base !== head) {
    lines.push(`    diff: ${oneLine(diff, max)}`);
  } else {
    lines.push(`    base: ${oneLine(base, max)}`, `    head: ${oneLine(head, max)}`);
  }
  const turns = turnsChange(row.baseConversation, row.headConversation);
  if (turns !== undefined) lines.push(`    turns: ${turns}`);
  for (const [name, e] of Object.entries(row.evals)) {
    if (e.change === 'same') continue;
    const reason = (side: { reason?: string; error?: string } | undefined): string => oneLine(side?.error ?? side?.reason ?? '', max);
    lines.push(`    ${name}: ${verdictText(e.base)} → ${verdictText(e.head)}`);
    if (reason(e.base)) lines.push(`      base: ${reason(e.base)}`);
    if (reason(e.head)) lines.push(`      head: ${reason(e.head)}`);
  }
  return lines;
}

const GATE_MARK = { regressed: '✘', inconclusive: '?', 'no regression': '✔' } as const;

/** `agentmark compare` as text for a terminal. */
export function formatCompareTable(result: CompareResult, options: CompareTableOptions = {}): string {
  const max = options.truncate === 0 ? Infinity : (options.truncate ?? 200);
  const { pairing } = result;
  const lines = ['COMPARE (head − base)', runLine('base', result.base), runLine('head', result.head)];
  if (result.differences.length > 0) {
    lines.push('  Differs:');
    for (const d of result.differences) lines.push(`    ${d.field}: ${oneLine(d.base, max)} → ${oneLine(d.head, max)}`);
  } else {
    lines.push('  Differs: nothing (same prompt, model, settings, dataset and commit)');
  }
  lines.push(`  Rows:    ${pairing.paired} paired, ${pairing.onlyInBase} only in base, ${pairing.onlyInHead} only in head`);
  for (const [label, rows, count] of [['base', pairing.onlyInBaseRows, pairing.onlyInBase], ['head', pairing.onlyInHeadRows, pairing.onlyInHead]] as const) {
    if (count === 0) continue;
    const listed = rows.map((r) => `#${r.index} ${oneLine(formatValue(r.input), 60)}`).join('; ');
    lines.push(`    only in ${label}: ${listed}${count > rows.length ? `; … ${count - rows.length} more` : ''}`);
  }
  if (pairing.warning !== undefined) lines.push(`  ⚠ ${pairing.warning}`);
  lines.push('');
  if (result.evals.length > 0) {
    lines.push(renderEvalTable(result.evals, options.width), ...wrapWords(evalsNote(result.evals, result.settings), options.width ?? 0), '');
  } else {
    lines.push('No evals to compare.', '');
  }
  lines.push(...performanceLines(result.performance.base, result.performance.head), '');
  const changed = result.changedRows;
  lines.push(`Changed rows: ${changed.regressed} regressed, ${changed.improved} improved`);
  for (const row of changed.rows) lines.push(...changedRowLines(row, max));
  if (changed.omitted > 0) lines.push(`  … ${changed.omitted} more changed rows not shown (--format json lists them up to --show)`);
  if (result.tolerance) {
    const t = result.tolerance;
    lines.push(
      '',
      `regression_tolerance ${t.tolerance}: ${t.failures.length + t.omitted} of ${t.compared} row × eval scores fell more than ${(t.tolerance * 100).toFixed(0)}% below base`,
    );
    for (const f of t.failures.slice(0, 10)) lines.push(`  #${f.headIndex} ${f.eval}: ${f.base.toFixed(2)} → ${f.head.toFixed(2)}`);
  }
  lines.push(...promptDiffLines(result.promptDiff));
  // The gate's line stays whole, as a verdict does in a table: CI logs are searched for it.
  const gate = `${result.gate.checked ? 'Gate' : 'Regression check'}: ${GATE_MARK[result.gate.outcome]} ${result.gate.message}`;
  return `${fitProse(lines.join('\n'), options.width)}\n\n${gate}\n`;
}
