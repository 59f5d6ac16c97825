import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useMemo } from 'preact/hooks';
import type { EvalSummary } from '../api.js';
import { number, percent } from '../format.js';
import { Histogram, binValues } from './histogram.js';
import { IntervalBar } from './interval-bar.js';

function distribution(column: ReadonlyArray<number | null>, labelColumn: ReadonlyArray<string | null>, count: number) {
  const scores: number[] = [];
  const labels = new Map<string, number>();
  const distinct = new Set<number>();
  for (let p = 0; p < count; p++) {
    const score = column[p];
    if (score !== null && score !== undefined) {
      scores.push(score);
      if (distinct.size < 3) distinct.add(score);
    }
  }
  for (let p = 0; p < Math.min(count, labelColumn.length); p++) {
    const label = labelColumn[p];
    if (label !== null && label !== undefined) labels.set(label, (labels.get(label) ?? 0) + 1);
  }
  return { scores, labels, isNumeric: labels.size === 0 && distinct.size > 2 };
}

/** pass^k or pass@k with its interval, as the summary holds them. */
function repeatRate(label: string, className: string, value: number | undefined, interval: [number, number] | undefined): VNode {
  return html`<span class=${className}>${label} <b>${percent(value)}</b> <span class="muted">(${percent(interval?.[0])} – ${percent(interval?.[1])})</span></span>`;
}

/**
 * One eval: its pass rate and interval (with repeats, pass^k and pass@k), mean ± standard error (all as the summary holds them),
 * then the distribution of its scores or labels over the rows.
 */
export function EvalCard(props: { summary: EvalSummary; scores: ReadonlyArray<number | null>; labels: ReadonlyArray<string | null>; count: number; position: number }): VNode {
  const { summary, position } = props;
  // Once per change of the rows, not per render: 100,000 rows take a while to walk.
  const { scores, labels, isNumeric } = useMemo(() => distribution(props.scores, props.labels, props.count), [props.scores, props.labels, props.count]);
  return html`<section class="card eval-card" aria-labelledby=${`eval-${position}`} data-eval=${summary.name}>
    <h3 id=${`eval-${position}`}>${summary.name}</h3>
    ${summary.passRate !== undefined
      ? html`<p class="big"><span class="pass-rate">${percent(summary.passRate)}</span> passed <span class="muted">(${summary.passedCount} of ${summary.verdictCount})</span></p>
          ${html`<${IntervalBar} value=${summary.passRate} interval=${summary.passRateCi95} label=${`${summary.name} pass rate`} />`}
          <p class="muted ci">95% interval <span class="ci-low">${percent(summary.passRateCi95?.[0])}</span> – <span class="ci-high">${percent(summary.passRateCi95?.[1])}</span></p>
          ${summary.repeats === undefined ? null : html`<p class="repeat-rates">${repeatRate(`pass^${summary.repeats}`, 'pass-hat-k', summary.passHatK, summary.passHatKCi95)} · ${repeatRate(`pass@${summary.repeats}`, 'pass-at-k', summary.passAtK, summary.passAtKCi95)}</p>`}`
      : html`<p class="muted">no pass/fail verdicts</p>`}
    ${summary.meanScore !== undefined
      ? html`<p>mean <span class="mean">${number(summary.meanScore)}</span>${summary.meanScoreStdErr === undefined ? '' : html` ± <span class="stderr">${number(summary.meanScoreStdErr)}</span> <span class="muted">(SE)</span>`}</p>`
      : null}
    <p class="muted counts">${summary.count} results${summary.errored > 0 ? html`, <span class="errored">${summary.errored} errored</span>` : ''}${summary.skipped ? `, ${summary.skipped} skipped` : ''}</p>
    ${isNumeric ? html`<${Histogram} bins=${binValues(scores, 10, (v) => number(v, 2))} label=${`${summary.name} scores`} xTitle="score" format=${(v: number) => number(v, 2)} />` : null}
    ${labels.size > 0
      ? html`<ul class="labels" aria-label=${`${summary.name} labels`}>${[...labels].sort((a, b) => b[1] - a[1]).map(([label, count]) => html`<li><span>${label}</span> <b>${count}</b></li>`)}</ul>`
      : null}
  </section>`;
}
