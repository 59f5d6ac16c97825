import { html } from 'htm/preact';
import type { VNode } from 'preact';

const WORDS: Record<string, string> = { P: 'PASS', F: 'FAIL', E: 'ERROR', S: 'SKIP' };

/** A verdict as a word and a colour: the word carries it for screen readers and projectors. */
export function Chip({ verdict, detail }: { verdict: string; detail?: string }): VNode {
  const word = WORDS[verdict];
  if (word === undefined) return html`<span class="chip chip-none">${detail ?? '—'}</span>`;
  return html`<span class=${`chip chip-${word.toLowerCase()}`}>${word}${detail === undefined ? '' : ` ${detail}`}</span>`;
}
