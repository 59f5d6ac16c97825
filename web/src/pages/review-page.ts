import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AgreementResponse, Label, QueueFilter, RowIndex, RowResult } from '../api.js';
import { AgreementPanel } from '../components/agreement-panel.js';
import { RowLabels } from '../components/row-labels.js';
import type { DataSource } from '../data/source.js';
import { fullText } from '../format.js';
import { useQueueKeys } from '../review/queue-keys.js';
import { useLabelling } from '../review/use-labelling.js';
import { href, navigate } from '../router.js';

const FILTERS: Array<[QueueFilter, string]> = [
  ['all', 'all rows'],
  ['judged', 'rows a judge scored'],
  ['doubt', 'judge reasons that voice doubt'],
  ['sample', 'a seeded random sample'],
  ['disagree', 'people and the judge disagree'],
  ['unreviewed-by-me', 'not reviewed by me'],
  ['unreviewed', 'not reviewed by anyone'],
];

/** A label in force that counts as this reviewer's review (given here or carried over; not the dataset's). */
const byReviewer = (label: Label, reviewer: string | undefined): boolean => !label.fromDataset && (reviewer === undefined || label.reviewer === reviewer);

/**
 * The review queue: the filtered rows one at a time, labelled with the keyboard (j / k move,
 * 1 / 0 pass / fail, a digit for a score or the n-th label, n for a note, u undoes), with its
 * progress and the run's agreement as it changes. The filter is the server's. It opens at the
 * first row of the queue this reviewer has not labelled (for the eval under review).
 */
export function ReviewPage({ source, id, query }: { source: DataSource; id: string; query: string }): VNode {
  const params = new URLSearchParams(query);
  const filter = (params.get('filter') ?? 'all') as QueueFilter;
  const labelling = useLabelling(source, id);
  const [positions, setPositions] = useState<number[] | undefined>();
  const [columns, setColumns] = useState<RowIndex | undefined>();
  const [at, setAt] = useState(0);
  const [row, setRow] = useState<RowResult | undefined>();
  const [agreement, setAgreement] = useState<AgreementResponse | null>(null);
  const [message, setMessage] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const evalName = params.get('eval') ?? labelling.evals.find((e) => e.judge)?.name ?? labelling.evals[0]?.name;
  const spec = labelling.evals.find((e) => e.name === evalName);
  const main = useRef<HTMLElement>(null);

  // Where a freshly loaded queue starts: once per queue, when its rows and the labels are known.
  const started = useRef<string | undefined>(undefined);
  const mineOn = (p: number, cols: RowIndex): boolean =>
    evalName !== undefined && labelling.labelsOf(cols.index[p] as number, cols.repeat[p] as number).some((l) => l.eval === evalName && byReviewer(l, labelling.reviewer));
  const serverQuery = (): string => {
    const sent = new URLSearchParams(query);
    if (labelling.reviewer !== undefined) sent.set('reviewer', labelling.reviewer);
    return sent.toString();
  };
  useEffect(() => {
    if (!source.queue) return;
    setPositions(undefined);
    setAt(0);
    started.current = undefined;
    Promise.all([source.queue(id, serverQuery()), source.index(id)]).then(([queue, index]) => {
      setPositions(queue.positions);
      setColumns(index);
    }, (e: unknown) => setError(String(e)));
  }, [id, query, labelling.reviewer]);
  useEffect(() => {
    if (!positions || !columns || !labelling.loaded || started.current === query) return;
    started.current = query;
    const first = positions.findIndex((p) => !mineOn(p, columns));
    setAt(first === -1 ? 0 : first);
  }, [positions, columns, labelling.loaded]);
  const position = positions?.[at];
  useEffect(() => {
    setRow(undefined);
    if (position === undefined) return;
    source.rows(id, [position]).then((found) => setRow(found.get(position)), (e: unknown) => setError(String(e)));
  }, [position]);
  useEffect(() => {
    source.agreement(id).then(setAgreement, (e: unknown) => setError(String(e)));
  }, [id, labelling.version]);

  const go = (patch: Record<string, string | undefined>): void => {
    // The eval under review goes with the filter: "not reviewed by me" means for this eval.
    const next = { ...(evalName === undefined ? {} : { eval: evalName }), ...Object.fromEntries([...params.entries()]) } as Record<string, string | undefined>;
    navigate(href.review(id, { ...next, ...patch }));
  };
  const label = (value: boolean | number | string): void => {
    if (!row || !spec || !labelling.writable) return;
    if (labelling.reviewer === undefined) return setMessage('Who is labelling? Give your name above first.');
    setMessage(undefined);
    void labelling.save(row.index, row.repeat, spec.name, value).catch(() => undefined);
  };
  useQueueKeys(spec, {
    next: () => setAt((a) => Math.min(a + 1, (positions?.length ?? 1) - 1)),
    previous: () => setAt((a) => Math.max(a - 1, 0)),
    label,
    note: () => main.current?.querySelector<HTMLInputElement>('tr.current .note-input')?.focus(),
    undo: () => void labelling.undo().then((undone) => setMessage(undone ? undefined : 'nothing to undo'), () => undefined),
    back: () => navigate(href.run(id)),
    refused: setMessage,
  });

  if (!source.queue) return html`<main><p>The review queue writes labels: open it in <code>agentmark view</code>.</p><a href=${href.run(id)}>← run ${id}</a></main>`;
  if (error) return html`<p role="alert" class="error-text">${error}</p>`;
  // Two counts over the queue's rows, for the eval under review: this reviewer's labels, and any
  // label in force (anyone's, carried over, the dataset's), as the agreement panel counts them.
  const labelledBy = (mineOnly: boolean): number =>
    positions && columns && evalName !== undefined
      ? positions.filter((p) => labelling.labelsOf(columns.index[p] as number, columns.repeat[p] as number).some((l) => l.eval === evalName && (!mineOnly || byReviewer(l, labelling.reviewer)))).length
      : 0;
  const reviewed = labelledBy(true);
  const anyone = labelledBy(false);
  const size = positions?.length ?? '…';
  return html`<main class="review-page" ref=${main}>
    <nav><a href=${href.run(id)}>← run ${id}</a></nav>
    <h1>review queue</h1>
    <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>rows <select aria-label="queue filter" value=${filter} onChange=${(e: Event) => go({ filter: (e.target as HTMLSelectElement).value })}>
        ${FILTERS.map(([value, text]) => html`<option value=${value}>${text}</option>`)}
      </select></label>
      <label>eval <select aria-label="queue eval" value=${evalName ?? ''} onChange=${(e: Event) => go({ eval: (e.target as HTMLSelectElement).value })}>
        ${labelling.evals.map((e) => html`<option value=${e.name}>${e.name}${e.judge ? ' (judge)' : ''}</option>`)}
      </select></label>
      ${filter === 'sample'
        ? html`<label>k <input type="number" min="1" max="10000" aria-label="sample size" value=${params.get('k') ?? '20'} onChange=${(e: Event) => go({ k: (e.target as HTMLInputElement).value })} /></label>
          <label>seed <input type="number" min="0" aria-label="sample seed" value=${params.get('seed') ?? '0'} onChange=${(e: Event) => go({ seed: (e.target as HTMLInputElement).value })} /></label>`
        : null}
      <span class="count" aria-live="polite" data-testid="progress"
        ><span class="count-mine">by you${labelling.reviewer ? ` (${labelling.reviewer})` : ''}: <b data-testid="reviewed">${reviewed}</b> of <span data-testid="queue-size">${size}</span></span
        ><span class="count-anyone"> · by anyone: <b data-testid="labelled-any">${anyone}</b> of ${size} labelled${evalName ? ` (${evalName})` : ''}</span></span>
    </form>
    ${positions && positions.length === 0 ? html`<p class="muted" data-testid="queue-empty">No row in this queue.</p>` : null}
    ${row
      ? html`<section class="queue-row" aria-label="row under review" data-index=${row.index}>
          <h2><a href=${href.row(id, row.index)}>row <span data-testid="queue-row">${row.index}</span>${row.repeat > 0 ? ` · repeat ${row.repeat}` : ''}</a>
            <span class="muted"> — <span data-testid="queue-at">${at + 1}</span> of ${positions?.length}</span></h2>
          <div class="queue-texts">
            <div><h4>input</h4><pre class="input">${fullText(row.input)}</pre></div>
            <div><h4>output</h4><pre class="output">${row.error !== undefined ? `error: ${row.error}` : fullText(row.output)}</pre></div>
            <div><h4>expected output</h4>${row.expectedOutput === undefined ? html`<p class="muted expected">none in the dataset</p>` : html`<pre class="expected">${fullText(row.expectedOutput)}</pre>`}</div>
          </div>
          ${evalName !== undefined && row.evals[evalName]?.reason !== undefined ? html`<p class="judge-reason"><b>${evalName}</b>: <span>${row.evals[evalName]?.reason}</span></p>` : null}
          <${RowLabels} labelling=${labelling} row=${row} current=${evalName} />
        </section>`
      : null}
    ${message ? html`<p role="status" class="error-text">${message}</p>` : null}
    <p class="muted keys">keys: j / k move, ${spec?.kind === 'categorical' ? '1–9 pick a label' : spec?.kind === 'numeric' ? 'a digit sets the score' : '1 pass, 0 fail'}, n note, u undo, Esc back to the run</p>
    ${agreement ? html`<${AgreementPanel} agreement=${agreement} runId=${id} canReview=${true} />` : null}
  </main>`;
}
