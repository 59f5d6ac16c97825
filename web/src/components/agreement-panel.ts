import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { AgreementResponse, EvalAgreementShown } from '../api.js';
import { href } from '../router.js';

type Estimate = EvalAgreementShown['kappa'];

const fixed = (value: number | undefined): string => (value === undefined ? 'n/a' : value.toFixed(2));
const pct = (value: number | undefined): string => (value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`);

/** `0.62 (95% 0.41 – 0.80)`, as `agentmark agreement` prints the same figure. */
function EstimateText({ estimate, show = fixed, testid }: { estimate: Estimate; show?: (v: number | undefined) => string; testid: string }): VNode {
  if (estimate.undefinedReason) return html`<span><b data-testid=${testid}>undefined</b> <span class="muted">(${estimate.undefinedReason})</span></span>`;
  return html`<span><b data-testid=${testid}>${show(estimate.value)}</b>${estimate.ci95
    ? html` <span class="muted">(95% <span data-testid=${`${testid}-low`}>${show(estimate.ci95[0])}</span> – <span data-testid=${`${testid}-high`}>${show(estimate.ci95[1])}</span>)</span>`
    : null}</span>`;
}

/** People in rows, the judge in columns, the diagonal (agreement) marked. */
function Confusion({ entry }: { entry: EvalAgreementShown }): VNode {
  const { categories, counts } = entry.confusion;
  return html`<div class="table-scroll"><table class="confusion" aria-label=${`${entry.eval} confusion matrix`}>
    <thead><tr><th scope="col">people \\ judge</th>${categories.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${categories.map((c, i) => html`<tr><th scope="row">${c}</th>${(counts[i] ?? []).map((n, j) => html`<td class=${`num${i === j ? ' agree' : ''}`}>${n}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

/**
 * Judge–human agreement per eval, as the server computed it (src/review/run-agreement.ts, the
 * numbers `agentmark agreement` prints): kappa and percent agreement with their intervals, the
 * rows behind them, the confusion matrix; disagreements one click away in the review queue.
 */
export function AgreementPanel({ agreement, runId, canReview }: { agreement: AgreementResponse; runId: string; canReview: boolean }): VNode {
  return html`<section class="agreement" aria-labelledby="agreement-title" data-testid="agreement">
    <h2 id="agreement-title">judge–human agreement</h2>
    <p class="muted" data-testid="agreement-labels">${agreement.labelledRows} labelled row${agreement.labelledRows === 1 ? '' : 's'}, ${agreement.ownLabels} label${agreement.ownLabels === 1 ? '' : 's'} given in this run${agreement.carried > 0 ? `, ${agreement.carried} carried over from earlier runs with the same output` : ''}</p>
    ${agreement.evals.length === 0 ? html`<p class="muted">No eval has both a judge verdict and a human label yet.</p>` : null}
    <div class="agreement-evals">
      ${agreement.evals.map(
        (entry) => html`<article class="card agreement-eval" data-eval=${entry.eval}>
          <h3>${entry.eval}</h3>
          <p>κ <${EstimateText} estimate=${entry.kappa} testid="kappa" />${entry.kind === 'numeric' ? html` <span class="muted">(quadratic)</span>` : null}</p>
          <p>agreement <${EstimateText} estimate=${entry.percentAgreement} show=${pct} testid="percent" /></p>
          ${entry.spearman ? html`<p>ρ <${EstimateText} estimate=${entry.spearman} testid="spearman" /></p>` : null}
          ${entry.meanAbsoluteDifference ? html`<p>mean |Δ| <${EstimateText} estimate=${entry.meanAbsoluteDifference} testid="mad" /></p>` : null}
          <p class="muted">over <span data-testid="rows-behind">${entry.n}</span> row${entry.n === 1 ? '' : 's'}${agreement.ties[entry.eval] ? `, ${agreement.ties[entry.eval]} left out (reviewers split evenly)` : ''}</p>
          <${Confusion} entry=${entry} />
          ${canReview ? html`<p><a href=${href.review(runId, { filter: 'disagree', eval: entry.eval })} data-testid="disagreements">disagreements →</a></p>` : null}
        </article>`,
      )}
    </div>
    ${agreement.reviewers.length > 0
      ? html`<h3>between reviewers <span class="muted">(the ceiling a judge can be held to)</span></h3>
        <ul class="reviewer-agreement">${agreement.reviewers.map(
          (entry) => html`<li>${entry.eval}: ${entry.reviewers.join(', ')} — ${entry.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ <${EstimateText} estimate=${entry.kappa} testid="reviewers-kappa" /> over ${entry.n} row${entry.n === 1 ? '' : 's'}</li>`,
        )}</ul>`
      : null}
  </section>`;
}
