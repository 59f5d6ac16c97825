import { formatCost } from '../report/format-cost.js';
import { formatCompareMarkdown } from '../report/compare/index.js';
import { evalLines, exitLine, rowsText, verdictCounts } from './eval-lines.js';
import type { CiPromptResult, CiReport, CiVerdict } from './types.js';

/** The hidden line `--comment` finds its own comment by. */
export const COMMENT_MARKER = '<!-- agentmark-ci -->';

/** GitHub refuses a comment body longer than this (characters). */
export const COMMENT_LIMIT = 65_536;

const ICONS: Record<CiVerdict, string> = {
  regressed: '❌',
  inconclusive: '❔',
  'no regression': '✅',
  unchanged: '➖',
  new: '🆕',
  removed: '🗑️',
  'no base': '⚠️',
  unfinished: '⏸️',
  error: '💥',
};

/** A table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\r\n|[\r\n]/g, ' ').replace(/\|/g, '\\|');
const code = (text: string): string => `\`${text.replace(/`/g, 'ʼ')}\``;

function costText(result: CiPromptResult): string {
  const { base, head } = result;
  if (head && base && base.source !== 'head') return `${formatCost(base.costUsd ?? 0)} → ${formatCost(head.costUsd ?? 0)}`;
  const side = head ?? base;
  return side === undefined ? '—' : formatCost(side.costUsd ?? 0);
}

function tableLine(result: CiPromptResult): string {
  const evals = evalLines(result).map(cell).join('<br>') || '—';
  return `| ${ICONS[result.verdict]} | ${code(result.path)} | **${result.verdict}** | ${evals} | ${rowsText(result)} | ${costText(result)} |`;
}

/** A prompt's folded section: the comparison as `compare --format markdown` writes it, or its note. */
function details(result: CiPromptResult): string | undefined {
  if (result.comparison) {
    const open = result.verdict === 'regressed' ? ' open' : '';
    return [`<details${open}><summary>${ICONS[result.verdict]} ${cell(result.path)}: ${result.verdict}</summary>`, '', formatCompareMarkdown(result.comparison).trimEnd(), '', '</details>', ''].join('\n');
  }
  return undefined;
}

/**
 * `agentmark ci --format markdown`: one pull-request comment. A table with one line per prompt,
 * then the details of every compared prompt (regressed ones unfolded), in the order of the table.
 * Kept under GitHub's limit: details that do not fit are left out from the end, then table lines,
 * with a note saying which.
 */
export function formatCiMarkdown(report: CiReport, limit = COMMENT_LIMIT): string {
  const { base, prompts } = report;
  const where = base.commit === undefined ? `no base (tried ${base.tried.map(code).join(', ') || 'nothing: not a git repository'})` : `base ${code(base.ref ?? '')} (${code(base.commit.slice(0, 12))}) → head (the working tree)`;
  const top = [COMMENT_MARKER, `### ${report.exitCode === 0 ? '✅' : '❌'} AgentMark CI: ${verdictCounts(prompts) || 'no prompts'}`, '', `${where}; ${exitLine(report.exitCode, prompts)}.`, ''];
  if (report.estimatedLiveCalls !== undefined) top.push(`Estimated live model calls before the run: ${report.estimatedLiveCalls} (cached answers are free).`, '');
  if (report.costLimit) top.push(`> ⚠️ --max-cost ${report.costLimit.maxUsd} USD was reached (${formatCost(report.costLimit.spentUsd)} spent): live calls stopped, unfinished prompts are marked.`, '');
  const header = ['| | Prompt | Verdict | Evals: base → head (95% interval) | Rows | Cost |', '|---|---|---|---|---|---|'];
  const lines = prompts.map(tableLine);
  const notes = prompts.filter((p) => p.note !== undefined).map((p) => `- ${code(p.path)}: ${cell(p.note as string)}`);
  const sections = prompts.map(details).filter((text): text is string => text !== undefined);
  const sectionPaths = prompts.filter((p) => p.comparison !== undefined).map((p) => p.path);
  const join = (table: string[], noteLines: string[], kept: string[], cut: string): string =>
    [...top, ...header, ...table, '', ...(noteLines.length > 0 ? [...noteLines, ''] : []), ...kept, ...(cut === '' ? [] : [cut, ''])].join('\n');
  const whole = join(lines, notes, sections, '');
  if (whole.length <= limit) return whole;
  // Reserve room for the note, then keep what fits, in order.
  const noteOf = (table: number, kept: number): string => {
    const parts: string[] = [];
    if (table < lines.length) parts.push(`${lines.length - table} table line${lines.length - table === 1 ? '' : 's'} (${prompts.slice(table).map((p) => p.path).join(', ')})`);
    if (kept < sections.length) parts.push(`the details of ${sectionPaths.slice(kept).join(', ')}`);
    return `> ✂️ Cut to fit GitHub's ${COMMENT_LIMIT.toLocaleString('en-US')}-character comment limit; left out: ${parts.join('; ')}. The whole report: \`agentmark ci --format json\`.`;
  };
  const text = (table: number, kept: number): string => join(lines.slice(0, table), table < lines.length ? [] : notes, sections.slice(0, kept), noteOf(table, kept));
  // Keeping fewer never makes the text longer, so the most that fits is found by bisection.
  const kept = most(sections.length, (k) => text(lines.length, k).length <= limit);
  const table = kept > 0 ? lines.length : most(lines.length, (t) => text(t, 0).length <= limit);
  return text(table, kept).slice(0, limit);
}

/** The largest k in 0..n with fits(k), for a fits that holds up to some k and not after (0 when none). */
function most(n: number, fits: (k: number) => boolean): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}
