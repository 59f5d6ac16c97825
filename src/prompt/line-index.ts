/** 1-based line and column of a position in a file's text. */
export interface LineColumn {
  line: number;
  column: number;
}

/**
 * Maps character offsets to line:column. Every error and warning points into the file by
 * offset, so this is built once per file instead of rescanning the text for each message.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
    }
  }

  at(offset: number): LineColumn {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] ?? 0) + 1 };
  }
}
