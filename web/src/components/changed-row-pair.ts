import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { ChangedRow, EvalSide } from '../api.js';
import { cellText, fullText } from '../format.js';
import { href } from '../router.js';
import { Chip } from './chip.js';
import { WordDiff } from './word-diff.js';
import { Transcript } from './transcript.js';

function verdictOf(side: EvalSide | undefined): string {
  // With repeats the row changed by its share of passing repeats, shown as the chip's detail.
  if (!side || side.repeats) return '-';
  if (side.error !== undefined) return 'E';
  if (side.passed === true) return 'P';
  if (side.passed === false) return 'F';
  return '-';
}

const detail = (side: EvalSide | undefined): string | undefined =>
  side?.repeats ? `${side.repeats.passed}/${side.repeats.of} passed` : side?.passed === undefined && side?.score !== undefined ? String(side.score) : undefined;

function outputText(output: unknown, error: string | undefined): string {
  return error !== undefined ? `ERROR: ${error}` : fullText(output);
}

/**
 * One row that changed verdict between the runs: its input, base's and head's output side by
 * side (a conversation's transcripts above them) with a word diff between them, and each eval
 * that changed with both verdicts and reasons.
 */
export function ChangedRowPair({ row, baseId, headId }: { row: ChangedRow; baseId: string; headId: string }): VNode {
  const base = outputText(row.baseOutput, row.baseError);
  const head = outputText(row.headOutput, row.headError);
  const index = row.baseIndex === row.headIndex ? `#${row.headIndex}` : `#${row.baseIndex} → #${row.headIndex}`;
  return html`<article class=${`changed-row ${row.change}`} data-change=${row.change} data-base-index=${row.baseIndex} data-head-index=${row.headIndex}>
    <h3><span class="change">${row.change === 'regressed' ? '▼ regressed' : '▲ improved'}</span> <span class="mono">${index}</span></h3>
    <h4>input</h4>
    <pre class="input">${cellText(row.input, 2000)}</pre>
    ${row.expectedOutput === undefined ? null : html`<h4>expected</h4><pre class="expected">${fullText(row.expectedOutput)}</pre>`}
    <div class="pair">
      <section aria-label="base output">
        <h4>base <a href=${href.row(baseId, row.baseIndex)}>row ${row.baseIndex}</a></h4>
        ${row.baseConversation === undefined ? null : html`<${Transcript} conversation=${row.baseConversation} />`}
        <pre class="base-output">${base}</pre>
      </section>
      <section aria-label="head output">
        <h4>head <a href=${href.row(headId, row.headIndex)}>row ${row.headIndex}</a></h4>
        ${row.headConversation === undefined ? null : html`<${Transcript} conversation=${row.headConversation} />`}
        <pre class="head-output">${head}</pre>
      </section>
    </div>
    ${base === head ? null : html`<h4>difference (base → head)</h4><${WordDiff} before=${base} after=${head} label="difference from base's output to head's" />`}
    <div class="table-scroll"><table class="evals">
      <thead><tr><th scope="col">eval</th><th scope="col">base</th><th scope="col">head</th><th scope="col">base reason</th><th scope="col">head reason</th></tr></thead>
      <tbody>${Object.entries(row.evals).map(
        ([name, e]) => html`<tr data-eval=${name} data-change=${e.change}><th scope="row">${name}</th>
          <td class="base-verdict"><${Chip} verdict=${verdictOf(e.base)} detail=${detail(e.base)} /></td>
          <td class="head-verdict"><${Chip} verdict=${verdictOf(e.head)} detail=${detail(e.head)} /></td>
          <td class="reason" data-side="base">${e.base?.error ?? e.base?.reason ?? ''}</td><td class="reason" data-side="head">${e.head?.error ?? e.head?.reason ?? ''}</td></tr>`,
      )}</tbody>
    </table></div>
  </article>`;
}
