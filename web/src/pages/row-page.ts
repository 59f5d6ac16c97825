import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ChatMessage, RowDetailResponse, RowResult } from '../api.js';
import { Chip } from '../components/chip.js';
import { WordDiff } from '../components/word-diff.js';
import { Transcript } from '../components/transcript.js';
import { RowLabels } from '../components/row-labels.js';
import { useLabelling } from '../review/use-labelling.js';
import type { DataSource } from '../data/source.js';
import { fullText, judgeText, ms, usd } from '../format.js';
import { useKeys } from '../keyboard.js';
import { href, navigate } from '../router.js';

function verdictOf(result: RowResult['evals'][string]): string {
  if (result.error !== undefined) return 'E';
  if (result.skipped) return 'S';
  if (result.passed === true) return 'P';
  if (result.passed === false) return 'F';
  return '-';
}

function MessageView({ message }: { message: ChatMessage }): VNode {
  const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as unknown as Array<Record<string, unknown>>);
  return html`<article class=${`message message-${message.role}`}>
    <h4>${message.role}</h4>
    ${parts.map((part) =>
      part['type'] === 'text'
        ? html`<pre>${String(part['text'] ?? '')}</pre>`
        : html`<p class="attachment">attachment: ${String(part['type'])}${part['mimeType'] ? ` (${String(part['mimeType'])})` : ''}</p>`,
    )}
  </article>`;
}

/** A dataset row as its dataset file would hold it: for "copy as dataset row". */
function datasetLine(row: RowResult): string {
  return JSON.stringify({ input: row.input, ...(row.expectedOutput === undefined ? {} : { expected_output: row.expectedOutput }), ...row.metadata });
}

function Repeat({ row }: { row: RowResult }): VNode {
  const expected = row.expectedOutput === undefined ? undefined : fullText(row.expectedOutput);
  const output = row.output === undefined ? undefined : fullText(row.output);
  return html`<section class="repeat" aria-label=${`repeat ${row.repeat}`}>
    <h3>repeat ${row.repeat}</h3>
    ${row.error !== undefined ? html`<p class="error-text" role="note">error${row.errorCode ? ` ${row.errorCode}` : ''}: ${row.error}</p>` : null}
    ${row.conversation !== undefined ? html`<h4>conversation</h4><${Transcript} conversation=${row.conversation} />` : null}
    <h4>${row.conversation !== undefined ? 'output (the last assistant turn)' : 'output'}</h4>
    <pre class="output" data-testid="output">${output ?? '—'}</pre>
    ${row.toolCalls.length > 0
      ? html`<h4>tool calls</h4>${row.toolCalls.map(
          (call) => html`<div class="tool-call"><b class="mono">${call.name}</b>
            <pre>${fullText(call.args)}</pre>
            ${call.error !== undefined ? html`<p class="error-text">${call.error}</p>` : html`<pre class="muted">→ ${fullText(call.result)}</pre>`}</div>`,
        )}`
      : null}
    ${expected !== undefined
      ? html`<h4>expected output</h4><pre class="expected">${expected}</pre>
          ${output !== undefined ? html`<h4>difference (expected → output)</h4><${WordDiff} before=${expected} after=${output} />` : null}`
      : null}
    <h4>evals</h4>
    <div class="table-scroll"><table class="evals">
      <thead><tr><th scope="col">eval</th><th scope="col">verdict</th><th scope="col">score</th><th scope="col">label</th><th scope="col">reason</th></tr></thead>
      <tbody>${Object.entries(row.evals).filter(([, r]) => !r.absent).map(
        ([name, r]) => html`<tr data-eval=${name}><th scope="row">${name}</th><td><${Chip} verdict=${verdictOf(r)} /></td>
          <td>${r.score ?? '—'}${r.normalized !== undefined && r.normalized !== r.score ? html` <span class="muted">(${r.normalized.toFixed(2)})</span>` : ''}</td>
          <td>${r.label ?? '—'}</td><td class="reason">${r.error ?? r.reason ?? ''}</td></tr>`,
      )}</tbody>
    </table></div>
    <dl class="facts">
      <div><dt>latency</dt><dd>${ms(row.latencyMs)}${row.cached ? ' (cached)' : ''}${row.pregenerated ? ' (pre-generated)' : ''}</dd></div>
      <div><dt>tokens</dt><dd>${row.usage ? `${row.usage.inputTokens} in, ${row.usage.outputTokens} out` : '—'}</dd></div>
      <div><dt>cost</dt><dd>${usd(row.costUsd)}</dd></div>
      ${row.judge ? html`<div><dt>judge</dt><dd>${judgeText(row.judge)}</dd></div>` : null}
      ${row.simulator ? html`<div><dt>simulator</dt><dd>${row.simulator.calls} calls, ${row.simulator.usage.totalTokens} tokens, ${usd(row.simulator.costUsd)}</dd></div>` : null}
      <div><dt>retries</dt><dd>${row.retries}</dd></div>
      ${row.finishReason ? html`<div><dt>finish</dt><dd>${row.finishReason}</dd></div>` : null}
    </dl>
  </section>`;
}

/** One dataset row: messages, output, tool calls, expected with a diff, every eval; repeats side by side. */
export function RowPage({ source, id, index }: { source: DataSource; id: string; index: number }): VNode {
  const [detail, setDetail] = useState<RowDetailResponse | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [copied, setCopied] = useState(false);
  const labelling = useLabelling(source, id);
  useEffect(() => {
    setDetail(undefined);
    source.row(id, index).then(setDetail, (e: unknown) => setError(String(e)));
  }, [id, index]);
  useKeys({ back: () => navigate(href.run(id)) });
  if (error) return html`<p role="alert" class="error-text">${error}</p>`;
  if (!detail) return html`<p class="muted" aria-busy="true">loading row ${index}…</p>`;
  const first = detail.rows[0] as RowResult;
  const line = datasetLine(first);
  const copy = (): void => {
    void navigator.clipboard?.writeText(line).then(() => setCopied(true), () => setCopied(false));
  };
  return html`<main class="row-page">
    <nav><a href=${href.run(id)}>← run ${id}</a></nav>
    <h1>row <span data-testid="row-index">${index}</span> <span class="muted">(dataset line ${first.line})</span></h1>
    <section aria-labelledby="messages-title">
      <h2 id="messages-title">messages</h2>
      ${detail.messages ? detail.messages.map((m) => html`<${MessageView} message=${m} />`) : html`<p class="muted">${detail.messagesNote ?? 'messages could not be rendered'}</p>`}
    </section>
    <section aria-labelledby="input-title">
      <h2 id="input-title">input</h2>
      <pre class="input">${fullText(first.input)}</pre>
      ${Object.keys(first.metadata).length > 0 ? html`<h2>metadata</h2><pre class="metadata">${fullText(first.metadata)}</pre>` : null}
    </section>
    <div class="repeats">${detail.rows.map((row) => html`<${Repeat} row=${row} />`)}</div>
    ${labelling.loaded ? html`<div class="repeats">${detail.rows.map((row) => html`<${RowLabels} labelling=${labelling} row=${row} />`)}</div>` : null}
    <section aria-labelledby="reproduce-title">
      <h2 id="reproduce-title">reproduce</h2>
      <pre class="mono" data-testid="reproduce">${detail.reproduce}</pre>
      <h2>as a dataset row</h2>
      <pre class="mono dataset-line">${line}</pre>
      <button type="button" onClick=${copy}>${copied ? 'copied' : 'copy as dataset row'}</button>
    </section>
  </main>`;
}
