import { truncate } from './truncate.js';
// How cells that carry a verdict give way in a fitted table (see fit-table.ts): the verdict word,
// the score and the eval's name stay; the reason is cut at a word, then left out.

const length = (text: string): number => Array.from(text).length;

/** `text` cut after a whole word so that it and `…` take at most `max` characters; undefined when not even one word fits. */
export function cutAtWord(text: string, max: number): string | undefined {
  const all = Array.from(text);
  if (all.length <= max) return text;
  const room = max - 1;
  if (room <= 0) return undefined;
  // Back from the first character that does not fit to a space: what is before it is whole words.
  let end = room;
  while (end > 0 && !/\s/.test(all[end] ?? '')) end -= 1;
  const kept = all.slice(0, end).join('').trimEnd();
  return kept === '' ? undefined : `${kept}…`;
}

/** `head` followed by as much of `reason` as fits in `width` (whole words), then `tail`; else `head + tail`. */
function withReason(head: string, reason: string, tail: string, width: number, short: string): string {
  const cut = cutAtWord(reason, width - length(head) - length(tail));
  return cut === undefined ? short : `${head}${cut}${tail}`;
}

/**
 * An eval cell of the results table (`formatEvalCell`), shortened to `width`:
 * `PASS (1.00 - output equals…)`, then `PASS (1.00)`; `ERROR: judge timed…`, then `ERROR`;
 * `score: 0.5, label: neutral, reason: warm` loses its reason, then its label.
 */
export function shortenEvalCell(text: string, width: number): string {
  const verdict = /^(PASS|FAIL) \((\d+\.\d\d)(?: - ([\s\S]*))?\)$/.exec(text);
  if (verdict) {
    const [, word = '', score = '', reason] = verdict;
    const short = `${word} (${score})`;
    return reason === undefined ? short : withReason(`${word} (${score} - `, reason, ')', width, short);
  }
  const bare = /^(PASS|FAIL|SKIP) \(([\s\S]*)\)$/.exec(text);
  if (bare) {
    const [, word = '', reason = ''] = bare;
    return withReason(`${word} (`, reason, ')', width, word);
  }
  if (text.startsWith('ERROR: ')) return withReason('ERROR: ', text.slice('ERROR: '.length), '', width, 'ERROR');
  if (text.startsWith('score: ') || text.startsWith('label: ')) {
    const parts = text.split(', ');
    const reasonAt = parts.findIndex((part) => part.startsWith('reason: '));
    const facts = reasonAt === -1 ? parts : parts.slice(0, reasonAt);
    const reason = reasonAt === -1 ? undefined : parts.slice(reasonAt).join(', ').slice('reason: '.length);
    const base = facts.join(', ');
    if (reason !== undefined && length(base) < width) {
      const cut = withReason(`${base}, reason: `, reason, '', width, '');
      if (cut !== '') return cut;
    }
    for (let n = facts.length; n > 1; n--) {
      const some = facts.slice(0, n).join(', ');
      if (length(some) <= width) return some;
    }
    return facts[0] ?? text;
  }
  return text;
}

/**
 * A list of `name value` entries (`exact 67%, tone 0.70`): as many whole entries as fit, then
 * `+n more`; at least the first. Narrower still: `+n` alone, then the first entry's name cut
 * (never its value, never under 4 characters) when `lastResort`: the name is the last thing
 * shortened.
 */
export function shortenList(text: string, width: number, lastResort = true): string {
  const entries = text.split(', ');
  for (let n = entries.length - 1; n >= 1; n--) {
    const some = `${entries.slice(0, n).join(', ')}, +${entries.length - n} more`;
    if (length(some) <= width) return some;
  }
  const first = entries[0] ?? '';
  const rest = entries.length > 1 ? `, +${entries.length - 1}` : '';
  if (length(first) + length(rest) <= width || !lastResort) return `${first}${rest}`;
  const space = first.lastIndexOf(' ');
  if (space <= 0) return `${first}${rest}`;
  const value = first.slice(space);
  const room = Math.max(4, width - length(value) - length(rest));
  return `${truncate(first.slice(0, space), room)}${value}${rest}`;
}

/** A value with its interval (`66.7% [20.8, 93.9], mean 0.67`) without the interval: `66.7%, mean 0.67`. */
export function withoutIntervals(text: string): string {
  return text.replace(/ \[[^\]]*\]/g, '');
}
