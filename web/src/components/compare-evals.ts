import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { EvalComparison } from '../api.js';
import { formatP, pointsInterval, signedPoints, valueWithInterval } from '../compare-format.js';
import { DifferenceBar } from './difference-bar.js';

/** The measure an eval is compared on: pass rate for verdict evals, else the mean score (as the CLI). */
function primary(e: EvalComparison): { base: string; head: string; diff: EvalComparison['passRate'] | EvalComparison['score'] } {
  const verdict = e.kind === 'verdict';
  return {
    base: verdict ? valueWithInterval(e.base.passRate, e.base.passRateCi95) : valueWithInterval(e.base.meanScore, e.base.meanScoreCi95),
    head: verdict ? valueWithInterval(e.head.passRate, e.head.passRateCi95) : valueWithInterval(e.head.meanScore, e.head.meanScoreCi95),
    diff: verdict ? e.passRate : e.score,
  };
}

/** Per eval: base, head, the difference with its intervals drawn and written, p-values, counts. */
export function CompareEvals({ evals, alpha }: { evals: readonly EvalComparison[]; alpha: number }): VNode {
  if (evals.length === 0) return html`<p>No evals to compare.</p>`;
  // One scale for every bar, so their lengths compare: the widest interval, at least ±10 points.
  let scale = 0.1;
  for (const e of evals) {
    const d = primary(e).diff;
    for (const v of [d?.estimate, ...(d?.ci95 ?? [])]) if (v !== undefined) scale = Math.max(scale, Math.abs(v));
  }
  const tested = evals.filter((e) => primary(e).diff !== undefined).length;
  return html`<div class="table-scroll"><table class="compare-evals">
    <thead><tr><th scope="col">eval</th><th scope="col">base</th><th scope="col">head</th><th scope="col">difference [95% CI]</th>
      <th scope="col">bootstrap 95%</th><th scope="col">p (Holm)</th><th scope="col">p (unadjusted)</th><th scope="col">improved / regressed / same</th><th scope="col">detectable drop</th><th scope="col">gate</th></tr></thead>
    <tbody>${evals.map((e) => {
      const { base, head, diff } = primary(e);
      return html`<tr data-eval=${e.name}>
        <th scope="row">${e.name} <span class="muted small">(${e.kind === 'verdict' ? 'pass rate' : 'mean score'})</span></th>
        <td class="base num" data-label="base">${base}</td><td class="head num" data-label="head">${head}</td>
        <td class="difference" data-label="difference [95% CI]">${diff
          ? html`<span class="num">${signedPoints(diff.estimate)} pts ${pointsInterval(diff.ci95)}</span>
              <${DifferenceBar} estimate=${diff.estimate} interval=${diff.ci95} scale=${scale} label=${`${e.name} difference`} />`
          : 'n/a'}</td>
        <td class="bootstrap num" data-label="bootstrap 95%">${pointsInterval(diff?.bootstrapCi95)}</td>
        <td class="p-holm num" data-label="p (Holm)">${formatP(diff?.pValueHolm)}</td>
        <td class="p num" data-label="p (unadjusted)">${formatP(diff?.pValue)}</td>
        <td class="counts num" data-label="improved / regressed / same">${e.improved} / ${e.regressed} / ${e.unchanged}</td>
        <td class="detectable num" data-label="detectable drop">${e.undetectable ? `not detectable with ${e.pairs} pairs` : e.minDetectable === undefined ? 'n/a' : `${(e.minDetectable * 100).toFixed(1)} pts`}</td>
        <td class="eval-gate" data-label="gate">${e.gate?.outcome ?? 'n/a'}</td>
      </tr>`;
    })}</tbody>
  </table></div>
  <p class="muted small">Differences are head − base in points, over paired rows. Pass rates: Newcombe interval, McNemar exact p; mean scores: paired t
    interval, Wilcoxon signed-rank p (with repeats, pass rates too, on each row's pass share). p (Holm): adjusted across ${tested} eval${tested === 1 ? '' : 's'}.
    Detectable drop: smallest drop the one-sided test finds with 80% power at α = ${alpha}${tested > 1 ? ` / ${tested}` : ''}.</p>`;
}
