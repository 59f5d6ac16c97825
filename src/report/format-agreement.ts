import type { Estimate, EvalAgreement, ReviewerAgreement, RunAgreement } from '../scoring/agreement/index.js';

const fixed = (value: number | undefined): string => (value === undefined ? 'n/a' : value.toFixed(2));
const percent = (value: number | undefined): string => (value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`);

/** `0.62 [0.41, 0.80]`; `undefined (no variation)` when a rater gave one verdict only; else `n/a` when there is no figure. */
export function formatEstimate(estimate: Estimate, show: (value: number | undefined) => string = fixed): string {
  if (estimate.undefinedReason) return `undefined (${estimate.undefinedReason})`;
  if (estimate.value === undefined) return 'n/a';
  return estimate.ci95 ? `${show(estimate.value)} [${show(estimate.ci95[0])}, ${show(estimate.ci95[1])}]` : show(estimate.value);
}

/** One eval's figures on one line: kappa first, as the gate reads it. */
export function agreementLine(agreement: EvalAgreement): string {
  const parts = [
    `κ ${formatEstimate(agreement.kappa)}${agreement.kind === 'numeric' ? ' (quadratic)' : ''}`,
    `agree ${formatEstimate(agreement.percentAgreement, percent)}`,
  ];
  if (agreement.spearman) parts.push(`ρ ${formatEstimate(agreement.spearman)}`);
  if (agreement.meanAbsoluteDifference) parts.push(`mean |Δ| ${formatEstimate(agreement.meanAbsoluteDifference)}`);
  parts.push(`over ${agreement.n} row${agreement.n === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** How the reviewers agree with each other on one eval. */
export function reviewerLine(agreement: ReviewerAgreement): string {
  const method = agreement.method === 'cohen' ? "Cohen's" : "Fleiss'";
  return `${agreement.reviewers.join(', ')}: ${method} κ ${formatEstimate(agreement.kappa)} over ${agreement.n} row${agreement.n === 1 ? '' : 's'} all labelled`;
}

/** The confusion matrix as aligned text: people in rows, the judge in columns. */
export function confusionLines(agreement: EvalAgreement, indent = '  '): string[] {
  const { categories, counts } = agreement.confusion;
  const corner = 'people \\ judge';
  const width = Math.max(5, ...categories.map((c) => c.length), ...counts.flat().map((n) => String(n).length));
  const label = Math.max(corner.length, ...categories.map((c) => c.length));
  const line = (first: string, cells: readonly string[]) => `${indent}${first.padEnd(label)}  ${cells.map((cell) => cell.padStart(width)).join('  ')}`;
  const head = line(corner, categories);
  const rows = categories.map((category, i) => line(category, (counts[i] ?? []).map(String)));
  return [head, ...rows];
}

/** The run summary's agreement block (a calibration set's labels against the judges). */
export function agreementSummaryLines(agreement: RunAgreement): string[] {
  if (agreement.evals.length === 0) return [];
  const width = Math.max(...agreement.evals.map((entry) => entry.eval.length));
  const lines = ['  Agreement: judge vs human labels (95% intervals)'];
  for (const entry of agreement.evals) lines.push(`    ${entry.eval.padEnd(width)}  ${agreementLine(entry)}`);
  for (const [name, ties] of Object.entries(agreement.ties)) lines.push(`    ${name}: ${ties} row${ties === 1 ? '' : 's'} left out (reviewers split evenly)`);
  for (const entry of agreement.reviewers) lines.push(`    ${entry.eval} reviewers ${reviewerLine(entry)}`);
  return lines;
}
