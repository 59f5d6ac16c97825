import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AgreementResponse } from '../api.js';
import { AgreementPanel } from '../components/agreement-panel.js';
import type { DataSource } from '../data/source.js';
import { href } from '../router.js';

/**
 * The run page's review part: the link to the review queue (where the viewer can write), and
 * the judge–human agreement panel once the run has labels (a report shows what it inlined).
 */
export function RunReview({ source, id }: { source: DataSource; id: string }): VNode | null {
  const [agreement, setAgreement] = useState<AgreementResponse | null>(null);
  useEffect(() => {
    source.agreement(id).then(setAgreement, () => setAgreement(null));
  }, [id]);
  const canReview = source.saveLabel !== undefined;
  const shown = agreement !== null && (agreement.evals.length > 0 || agreement.reviewers.length > 0);
  if (!canReview && !shown) return null;
  return html`<div class="run-review">
    ${canReview
      ? html`<p class="review-links"><a href=${href.review(id, { filter: 'judged' })} data-testid="review-queue">review the rows a judge scored →</a>
          <span class="muted"> or </span><a href=${href.review(id)}>review every row</a></p>`
      : null}
    ${shown ? html`<${AgreementPanel} agreement=${agreement} runId=${id} canReview=${canReview} />` : null}
  </div>`;
}
