import picocolors from 'picocolors';

/** The few styles reports use, each the identity when colour is off. */
export interface Palette {
  readonly enabled: boolean;
  pass(text: string): string;
  fail(text: string): string;
  /** Row and eval errors: as loud as a failure, they are one. */
  error(text: string): string;
  /** Skipped results and other quiet detail. */
  dim(text: string): string;
  bold(text: string): string;
}

/**
 * picocolors: no dependencies, no native build, ~3 KB, and `createColors(enabled)` takes the
 * decision from us (made per stream in the CLI, from `NO_COLOR`/`FORCE_COLOR` and isTTY)
 * instead of reading process.stdout itself, so a report to a file or a test buffer is plain.
 */
export function createPalette(enabled: boolean): Palette {
  const c = picocolors.createColors(enabled);
  // An empty string stays empty: no escape codes around nothing.
  const style = (paint: (text: string) => string) => (text: string) => (enabled && text !== '' ? paint(text) : text);
  return {
    enabled,
    pass: style(c.green),
    fail: style(c.red),
    error: style((text) => c.bold(c.red(text))),
    dim: style(c.dim),
    bold: style(c.bold),
  };
}

export const plainPalette: Palette = createPalette(false);
