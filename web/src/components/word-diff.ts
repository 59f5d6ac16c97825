import { diffWords } from 'diff';
import { html } from 'htm/preact';
import type { VNode } from 'preact';

/** Expected against actual, word by word; inserted and deleted words are marked, as text. */
export function WordDiff({ before, after, label = 'difference from the expected output to the output' }: { before: string; after: string; label?: string }): VNode {
  const parts = diffWords(before, after);
  return html`<pre class="diff" aria-label=${label}>${parts.map((part) =>
    part.added
      ? html`<ins>${part.value}</ins>`
      : part.removed
        ? html`<del>${part.value}</del>`
        : html`<span>${part.value}</span>`,
  )}</pre>`;
}
