import { promptDiffMarkdown } from './format-prompt-diff.js';
import type { ChangedRow, CompareResult, EvalSide } from '../../compare/index.js';
import { repeatsText } from './repeats-text.js';
import { formatCost } from '../format-cost.js';
import { formatDuration } from '../format-duration.js';
import { formatValue } from '../format-value.js';
import { truncate } from '../truncate.js';
import { EVAL_HEADERS, evalCells, evalsNote } from './eval-cells.js';
import { turnsChange } from '../conversation-note.js';

/** A table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\r\n|[\r\n]/g, ' ').replace(/\|/g, '\\|');
const code = (text: string): string => `\`${text.replace(/`/g, 'ʼ')}\``;

function row(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function changedRow(r: ChangedRow): string[] {
  const mark = r.change === 'regressed' ? '🔻' : '🔺';
  const out = [`**${mark} #${r.headIndex}** input ${code(truncate(formatValue(r.input), 200))}`, ''];
  const base = r.baseError !== undefined ? `ERROR: ${r.baseError}` : formatValue(r.baseOutput);
  const head = r.headError !== undefined ? `ERROR: ${r.headError}` : formatValue(r.headOutput);
  out.push(`- base: ${code(truncate(cell(base), 300))}`, `- head: ${code(truncate(cell(head), 300))}`);
  const turns = turnsChange(r.baseConversation, r.headConversation);
  if (turns !== undefined) out.push(`- turns: ${turns}`);
  for (const [name, e] of Object.entries(r.evals)) {
    if (e.change === 'same') continue;
    const v = (s: EvalSide | undefined): string => (!s ? '—' : s.repeats ? repeatsText(s.repeats) : s.error !== undefined ? 'ERROR' : s.passed === undefined ? 'score' : s.passed ? 'PASS' : 'FAIL');
    const why = (s: { reason?: string; error?: string } | undefined): string => (s?.error ?? s?.reason ?? '').trim();
    const reasons = [why(e.base), why(e.head)].some((x) => x !== '') ? ` (${cell(why(e.base)) || '—'} → ${cell(why(e.head)) || '—'})` : '';
    out.push(`- ${name}: ${v(e.base)} → ${v(e.head)}${reasons}`);
  }
  out.push('');
  return out;
}

/** `agentmark compare --format markdown`: for a pull-request comment or `$GITHUB_STEP_SUMMARY`. */
export function formatCompareMarkdown(result: CompareResult): string {
  const { base, head, pairing, gate } = result;
  const icon = gate.outcome === 'regressed' ? (gate.checked ? '❌' : '⚠️') : gate.outcome === 'inconclusive' ? '❔' : '✅';
  const label = gate.outcome === 'regressed' ? 'Regressed' : gate.outcome === 'inconclusive' ? 'Inconclusive' : 'No regression';
  const lines = [`### ${icon} AgentMark compare: ${code(head.prompt.path)}`, '', `**${label}:** ${cell(gate.message.replace(/^(regressed|inconclusive|no regression): /, ''))}`, ''];
  if (pairing.warning !== undefined) lines.push(`> ⚠️ ${cell(pairing.warning)}`, '');
  lines.push('| | base | head |', '|---|---|---|');
  lines.push(row(['run', base.id, head.id]));
  for (const d of result.differences) lines.push(row([d.field, truncate(d.base, 120), truncate(d.head, 120)]));
  lines.push(row(['rows', `${base.rows}`, `${head.rows}`]));
  const perf = result.performance;
  const latency = (p: typeof perf.base): string => (p.latencyP50Ms === undefined ? 'n/a' : `${formatDuration(p.latencyP50Ms)} / ${formatDuration(p.latencyP95Ms ?? NaN)}`);
  lines.push(row(['latency p50 / p95', latency(perf.base), latency(perf.head)]));
  lines.push(row(['tokens in / out', `${perf.base.inputTokens} / ${perf.base.outputTokens}`, `${perf.head.inputTokens} / ${perf.head.outputTokens}`]));
  lines.push(row(['cost', formatCost(perf.base.costUsd), formatCost(perf.head.costUsd)]), '');
  lines.push(`${pairing.paired} rows paired (${pairing.onlyInBase} only in base, ${pairing.onlyInHead} only in head).`, '');
  if (result.evals.length > 0) {
    lines.push(row(EVAL_HEADERS), `|${EVAL_HEADERS.map(() => '---').join('|')}|`);
    for (const e of result.evals) lines.push(row(evalCells(e)));
    lines.push('', `<sub>${evalsNote(result.evals, result.settings)}</sub>`, '');
  }
  if (result.tolerance) {
    const t = result.tolerance;
    lines.push(`**regression_tolerance ${t.tolerance}:** ${t.failures.length + t.omitted} of ${t.compared} row × eval scores fell more than ${(t.tolerance * 100).toFixed(0)}% below base.`, '');
  }
  const changed = result.changedRows;
  if (changed.rows.length > 0) {
    lines.push(`<details><summary>Changed rows: ${changed.regressed} regressed, ${changed.improved} improved</summary>`, '');
    for (const r of changed.rows) lines.push(...changedRow(r));
    if (changed.omitted > 0) lines.push(`… and ${changed.omitted} more.`, '');
    lines.push('</details>', '');
  } else {
    lines.push('No row changed verdict.', '');
  }
  lines.push(...promptDiffMarkdown(result.promptDiff));
  return `${lines.join('\n')}`;
}
