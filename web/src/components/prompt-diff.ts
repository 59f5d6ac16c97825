import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { CompareResponse } from '../api.js';
import { WordDiff } from './word-diff.js';

type PromptDiff = NonNullable<CompareResponse['promptDiff']>;

/** The two prompts as each run stored them, word by word: one block per file that differs. */
export function PromptDiffSection({ diff }: { diff: PromptDiff | undefined }): VNode | null {
  if (!diff) return null;
  return html`<section aria-labelledby="prompt-diff-title" class="prompt-diff" data-testid="prompt-diff">
    <h2 id="prompt-diff-title">prompt diff <span class="muted small">(as each run stored it)</span></h2>
    ${diff.note !== undefined
      ? html`<p class="muted">${diff.note}</p>`
      : diff.files.length === 0
        ? html`<p>the same prompt</p>`
        : diff.files.map(
            (file) => html`<div class="prompt-diff-file" data-path=${file.head?.path ?? file.base?.path}>
              <h3 class="mono">${file.base?.path ?? '(none)'}${file.base?.path === file.head?.path ? '' : ` → ${file.head?.path ?? '(none)'}`}</h3>
              <${WordDiff} before=${file.base?.text ?? ''} after=${file.head?.text ?? ''} label=${`difference of ${file.head?.path ?? file.base?.path} from base to head`} />
            </div>`,
          )}
  </section>`;
}
