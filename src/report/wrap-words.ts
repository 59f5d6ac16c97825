const length = (text: string): number => Array.from(text).length;

/**
 * `text` in lines of at most `size` characters (code points), broken at spaces; a word longer
 * than a line is the only thing split. At least one line. The space a line breaks at is dropped.
 */
export function wrapWords(text: string, size: number): string[] {
  if (size <= 0 || length(text) <= size) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (length(candidate) <= size) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    // A word wider than the line: its full-width pieces go out, the rest starts the next line.
    let rest = Array.from(word);
    while (rest.length > size) {
      lines.push(rest.slice(0, size).join(''));
      rest = rest.slice(size);
    }
    line = rest.join('');
  }
  lines.push(line);
  return lines;
}
