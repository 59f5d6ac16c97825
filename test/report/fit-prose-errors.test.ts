import { describe, expect, it } from 'vitest';
import { printError } from '../../src/cli/print-error.js';
import { UsageError } from '../../src/errors/index.js';

function stream(columns?: number): { text: string; write: (chunk: string) => boolean; columns?: number } {
  const out = { text: '', write: (chunk: string) => ((out.text += chunk), true), ...(columns === undefined ? {} : { columns }) };
  return out;
}

describe('an error and its hint on a terminal wrap at words to its width', () => {
  const error = (): UsageError =>
    new UsageError('USAGE_BAD_ARGUMENT', 'no rows in common between base run-a (12 rows) and head run-b (12 rows)', {
      hint: 'rows pair by their content (input, expected output, metadata); compare two runs of the same dataset',
    });
  it('at 60 columns', () => {
    const out = stream(60);
    printError(error(), out as never);
    expect(out.text).toBe(
      [
        'error: no rows in common between base run-a (12 rows) and',
        '  head run-b (12 rows)',
        '  hint: rows pair by their content (input, expected output,',
        '    metadata); compare two runs of the same dataset',
        '',
      ].join('\n'),
    );
  });
  it('piped (no width): as it is', () => {
    const out = stream();
    printError(error(), out as never);
    expect(out.text.split('\n')[0]).toBe('error: no rows in common between base run-a (12 rows) and head run-b (12 rows)');
  });
});
