import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import type { Label, ReviewEval, RowResult } from '../api.js';
import type { LabelValue, Labelling } from '../review/use-labelling.js';

/** A label's value as words: pass / fail, the number, the category. */
export function valueText(value: LabelValue): string {
  return value === true ? 'pass' : value === false ? 'fail' : String(value);
}

/** What the judge (or scorer) said, in the same words. */
function judgeText(result: RowResult['evals'][string] | undefined, spec: ReviewEval): string {
  if (!result) return '—';
  if (result.error !== undefined) return 'error';
  if (result.skipped) return 'skipped';
  if (spec.kind === 'boolean') return result.passed === undefined ? '—' : valueText(result.passed);
  if (spec.kind === 'categorical') return result.label ?? '—';
  return result.score === undefined ? '—' : String(result.score);
}

function LabelInForce({ label }: { label: Label }): VNode {
  const origin = label.fromDataset ? 'from the dataset' : label.carriedFrom !== undefined ? `label carried over from run ${label.carriedFrom}` : undefined;
  return html`<li class="label-in-force" data-reviewer=${label.reviewer}>
    <b class=${`label-value label-${String(label.value)}`}>${valueText(label.value)}</b>
    ${label.fromDataset ? null : html` <span class="muted">by ${label.reviewer}</span>`}
    ${origin ? html` <span class="muted carried">(${origin})</span>` : null}
    ${label.note !== undefined ? html`<div class="note">${label.note}</div>` : null}
  </li>`;
}

/** The inputs that set one eval's label: by its kind. */
function Controls({ spec, mine, onSave }: { spec: ReviewEval; mine: Label | undefined; onSave: (value: LabelValue | null, note?: string) => void }): VNode {
  const [note, setNote] = useState<string | undefined>();
  const shownNote = note ?? mine?.note ?? '';
  const noteFor = (): string | undefined => (shownNote === '' ? undefined : shownNote);
  let setter: VNode;
  if (spec.kind === 'boolean') {
    setter = html`<span class="label-buttons">
      <button type="button" aria-pressed=${mine?.value === true} onClick=${() => onSave(true, noteFor())}>pass</button>
      <button type="button" aria-pressed=${mine?.value === false} onClick=${() => onSave(false, noteFor())}>fail</button></span>`;
  } else if (spec.kind === 'categorical') {
    setter = html`<select aria-label=${`${spec.name} label`} value=${typeof mine?.value === 'string' ? mine.value : ''}
      onChange=${(e: Event) => {
        const value = (e.target as HTMLSelectElement).value;
        if (value !== '') onSave(value, noteFor());
      }}>
      <option value="">label…</option>${(spec.categories ?? []).map((c) => html`<option value=${c}>${c}</option>`)}
    </select>`;
  } else {
    setter = html`<input type="number" class="score-input" aria-label=${`${spec.name} score`} step="any" min=${spec.min} max=${spec.max}
      value=${typeof mine?.value === 'number' ? mine.value : ''}
      onChange=${(e: Event) => {
        const text = (e.target as HTMLInputElement).value;
        if (text !== '' && Number.isFinite(Number(text))) onSave(Number(text), noteFor());
      }} />`;
  }
  return html`<div class="label-controls">
    ${setter}
    <input type="text" class="note-input" aria-label=${`${spec.name} note`} placeholder="note (Enter saves)" maxlength="2000" value=${shownNote}
      onInput=${(e: Event) => setNote((e.target as HTMLInputElement).value)}
      onKeyDown=${(e: KeyboardEvent) => {
        if (e.key === 'Enter' && mine !== undefined) {
          onSave(mine.value, noteFor());
          (e.target as HTMLInputElement).blur();
        }
      }} />
    ${mine !== undefined ? html`<button type="button" class="clear" onClick=${() => onSave(null)}>clear</button>` : null}
  </div>`;
}

/** Asks once for the name labels are given under (when the viewer has no --reviewer and git has no user.name). */
function AskName({ onName }: { onName: (name: string) => void }): VNode {
  const [name, setName] = useState('');
  return html`<form class="ask-name" onSubmit=${(e: Event) => {
    e.preventDefault();
    if (name.trim() !== '') onName(name);
  }}>
    <label>Who is labelling? <input type="text" aria-label="reviewer name" value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} /></label>
    <button type="submit">label as this name</button>
  </form>`;
}

/**
 * One row's labels, eval by eval: what the judge said, the labels in force (own, carried over
 * from an earlier run with the same output, the dataset's), and, when the viewer may write, the
 * controls that set this reviewer's label.
 */
export function RowLabels({ labelling, row, current }: { labelling: Labelling; row: RowResult; current?: string }): VNode | null {
  if (!labelling.loaded) return null;
  const labels = labelling.labelsOf(row.index, row.repeat);
  const canWrite = labelling.writable && labelling.reviewer !== undefined;
  return html`<section class="row-labels" aria-label=${`labels of row ${row.index} repeat ${row.repeat}`}>
    <h4>labels</h4>
    ${labelling.writable && labelling.reviewer === undefined ? html`<${AskName} onName=${labelling.setReviewer} />` : null}
    <div class="table-scroll"><table class="labels-table">
      <thead><tr><th scope="col">eval</th><th scope="col">judge</th><th scope="col">labels in force</th>${canWrite ? html`<th scope="col">your label${labelling.reviewer ? ` (${labelling.reviewer})` : ''}</th>` : null}</tr></thead>
      <tbody>${labelling.evals.filter((spec) => spec.name in row.evals && row.evals[spec.name]?.absent !== true).map((spec) => {
        const own = labels.filter((l) => l.eval === spec.name);
        return html`<tr data-eval=${spec.name} class=${spec.name === current ? 'current' : ''}>
          <th scope="row">${spec.name}${spec.judge ? html` <span class="muted small">judge</span>` : null}</th>
          <td class="judge">${judgeText(row.evals[spec.name], spec)}</td>
          <td><ul class="in-force">${own.length === 0 ? html`<li class="muted">none</li>` : own.map((l) => html`<${LabelInForce} label=${l} />`)}</ul></td>
          ${canWrite
            ? html`<td class="controls"><${Controls} key=${`${row.index}:${row.repeat}:${spec.name}`} spec=${spec} mine=${labelling.mine(row.index, row.repeat, spec.name)}
                onSave=${(value: LabelValue | null, note?: string) => void labelling.save(row.index, row.repeat, spec.name, value, note).catch(() => undefined)} /></td>`
            : null}
        </tr>`;
      })}</tbody>
    </table></div>
    ${labelling.error ? html`<p role="alert" class="error-text">${labelling.error}</p>` : null}
  </section>`;
}
