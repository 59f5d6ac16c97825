/**
 * One part of the progress line. `drop` ranks the parts left out first when the line is too
 * wide (1 first); an `attached` part is written right after the one before it, with no
 * separator (the count's percentage: `3/4 rows (75%)`).
 */
export interface ProgressPart {
  text: string;
  drop?: number;
  attached?: boolean;
}

const SEPARATOR = ' · ';

/**
 * The progress line within `width` characters: the parts that fit, leaving out the ones with a
 * `drop` rank in that order (the rate first) rather than cutting the line's end, where the pace
 * (`paced: 100 req/s by the provider`) stands. Only a line still too wide without all of them
 * is cut.
 */
export function fitProgressLine(parts: readonly ProgressPart[], width: number): string {
  let kept = parts;
  let text = join(kept);
  const ranks = [...new Set(parts.flatMap((part) => (part.drop === undefined ? [] : [part.drop])))].sort((a, b) => a - b);
  for (const rank of ranks) {
    if (text.length <= width) return text;
    kept = kept.filter((part) => part.drop !== rank);
    text = join(kept);
  }
  return text.length <= width ? text : text.slice(0, width);
}

function join(parts: readonly ProgressPart[]): string {
  let text = '';
  for (const part of parts) text += text === '' || part.attached === true ? part.text : `${SEPARATOR}${part.text}`;
  return text;
}
