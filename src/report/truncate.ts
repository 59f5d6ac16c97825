/**
 * Cuts `text` to at most `max` characters, the last being `…`. Counts code points, so an
 * emoji is never split into a lone surrogate. `max` 0 (or less) keeps the text whole.
 */
export function truncate(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max - 1).join('')}…`;
}
