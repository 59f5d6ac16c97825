import type { RunAgreementReport } from '../review/index.js';
import { agreementLine, confusionLines, formatEstimate, reviewerLine } from './format-agreement.js';

/** `agentmark agreement` as text: one line per eval, then each confusion matrix. */
export function formatAgreementTable(runId: string, report: RunAgreementReport): string {
  const lines = [`Agreement of run ${runId}: judge vs human labels (95% intervals)`, `  ${describeLabels(report)}`, ''];
  if (report.evals.length === 0) {
    lines.push('No eval has both a judge verdict and a human label yet.', 'Label rows with `agentmark annotate <run> <row> <eval> --pass|--fail|--score|--label`, or in `agentmark view`.');
    return `${lines.join('\n')}\n`;
  }
  const width = Math.max(...report.evals.map((entry) => entry.eval.length));
  for (const entry of report.evals) lines.push(`  ${entry.eval.padEnd(width)}  ${agreementLine(entry)}`);
  for (const entry of report.evals) lines.push('', `  ${entry.eval} (${entry.confusion.n} rows)`, ...confusionLines(entry, '    '));
  for (const [name, ties] of Object.entries(report.ties)) lines.push('', `  ${name}: ${ties} row${ties === 1 ? '' : 's'} left out (reviewers split evenly)`);
  if (report.reviewers.length > 0) {
    lines.push('', 'Between reviewers (the ceiling a judge can be held to):');
    for (const entry of report.reviewers) lines.push(`  ${entry.eval}: ${reviewerLine(entry)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The same as markdown, for a PR comment. */
export function formatAgreementMarkdown(runId: string, report: RunAgreementReport): string {
  const lines = [`### Judge agreement — run \`${runId}\``, '', describeLabels(report), ''];
  if (report.evals.length === 0) return `${[...lines, 'No eval has both a judge verdict and a human label yet.'].join('\n')}\n`;
  lines.push('| eval | rows | κ [95% CI] | agreement | ρ | mean abs. diff. |', '|---|---:|---|---|---|---|');
  for (const entry of report.evals) {
    const percent = (value: number | undefined) => (value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`);
    lines.push(
      `| ${entry.eval} | ${entry.n} | ${formatEstimate(entry.kappa)} | ${formatEstimate(entry.percentAgreement, percent)} | ${entry.spearman ? formatEstimate(entry.spearman) : '—'} | ${entry.meanAbsoluteDifference ? formatEstimate(entry.meanAbsoluteDifference) : '—'} |`,
    );
  }
  for (const entry of report.reviewers) lines.push('', `Reviewers on ${entry.eval}: ${reviewerLine(entry)}`);
  return `${lines.join('\n')}\n`;
}

function describeLabels(report: RunAgreementReport): string {
  const parts = [`${report.labelledRows} labelled row${report.labelledRows === 1 ? '' : 's'}`, `${report.ownLabels} label${report.ownLabels === 1 ? '' : 's'} given in this run`];
  if (report.carried > 0) parts.push(`${report.carried} carried over from earlier runs with the same output`);
  return parts.join(', ');
}
